// Headless-Chromium checks of the overtalk HTML report (run through ./run.sh).
//
// Generates reports with the overtalk binary, opens each from file:// and asserts: a lane per
// speaker, interruption arrows == the JSON count, matrix and share values == `analyze --format
// json`, clicking an event shows its details, no console errors, no network request, the XSS
// transcript stays inert; measures first render and zoom frame times on the longest 4-speaker
// AMI meeting; saves screenshots.
import { chromium } from 'playwright-core';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync, readdirSync, existsSync } from 'node:fs';
import { dirname, join, resolve, basename } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '../..');
const bin = process.env.OVERTALK_BIN || join(repo, 'target/debug/overtalk');
const shared = process.env.OVERTALK_SHARED_DATA || resolve(repo, '../shared/data');
const browserPath = process.env.CHROMIUM || '/usr/bin/chromium';
const out = join(here, 'out');
mkdirSync(out, { recursive: true });

let failures = 0;
const results = {};
function check(cond, what) {
  if (cond) { console.log('  ok   ' + what); }
  else { failures++; console.log('  FAIL ' + what); }
}
function need(path, what) {
  if (!existsSync(path)) { console.error(`missing ${what}: ${path}`); process.exit(2); }
}
// A synthetic 2-hour, 4-speaker meeting with thousands of turns (deterministic LCG).
function syntheticMeeting(path) {
  let seed = 12345;
  const rnd = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
  const lines = [];
  let t = 0, who = 0;
  while (t < 7200) {
    const len = 0.3 + rnd() * (rnd() < 0.05 ? 15 : 2);
    lines.push(`SPEAKER synth2h 1 ${t.toFixed(2)} ${len.toFixed(2)} <NA> <NA> S${who} <NA> <NA>`);
    if (rnd() < 0.25) { // a backchannel or an overlap by someone else
      const o = (who + 1 + Math.floor(rnd() * 3)) % 4;
      lines.push(`SPEAKER synth2h 1 ${(t + len * rnd()).toFixed(2)} ${(0.2 + rnd() * 0.8).toFixed(2)} <NA> <NA> S${o} <NA> <NA>`);
    }
    t += len + (rnd() < 0.3 ? -0.2 * rnd() : 0.3 + rnd());
    if (rnd() < 0.7) who = (who + 1 + Math.floor(rnd() * 3)) % 4;
  }
  const onset = (l) => Number(l.split(' ')[3]);
  lines.sort((a, b) => onset(a) - onset(b));
  writeFileSync(path, lines.join('\n') + '\n');
  return lines.length;
}

// A synthetic 2-hour, 4-speaker shouting match: every turn starts 1–2 s before the previous
// one ends, so nearly every turn is an interruption (thousands of arrows).
function crowdedMeeting(path) {
  let seed = 777;
  const rnd = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
  const lines = [];
  let t = 0, who = 0;
  while (t < 7200) {
    const len = 3 + rnd() * 3;
    lines.push(`SPEAKER crowd2h 1 ${t.toFixed(2)} ${len.toFixed(2)} <NA> <NA> S${who} <NA> <NA>`);
    t += len - 1 - rnd();
    who = (who + 1 + Math.floor(rnd() * 3)) % 4;
  }
  writeFileSync(path, lines.join('\n') + '\n');
  return lines.length;
}

function overtalk(args) {
  return execFileSync(bin, ['-q', ...args], { encoding: 'utf8', maxBuffer: 1 << 30 });
}
function near(a, b) {
  if (a === null || b === null) return a === b;
  return Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(b));
}

need(bin, 'overtalk binary (cargo build -p overtalk-cli)');
need(browserPath, 'chromium (apt-get install -y chromium)');
need(shared, 'shared data ($OVERTALK_SHARED_DATA)');

const amiDir = join(shared, 'corpora/ami/only_words/rttms');
const rcVtt = join(repo, 'examples/red-carpet/red-carpet.vtt');
const es2004a = join(amiDir, 'test/ES2004a.rttm');
need(rcVtt, 'red-carpet example');
need(es2004a, 'AMI ES2004a reference');

// The longest AMI meeting with exactly 4 speakers.
function longestFourSpeaker() {
  let best = null;
  for (const split of readdirSync(amiDir)) {
    for (const f of readdirSync(join(amiDir, split))) {
      if (!f.endsWith('.rttm')) continue;
      const p = join(amiDir, split, f);
      let end = 0; const spk = new Set();
      for (const line of readFileSync(p, 'utf8').split('\n')) {
        const c = line.trim().split(/\s+/);
        if (c[0] !== 'SPEAKER') continue;
        end = Math.max(end, Number(c[3]) + Number(c[4]));
        spk.add(c[7]);
      }
      if (spk.size === 4 && (!best || end > best.end)) best = { path: p, end };
    }
  }
  return best;
}

// The XSS case: hostile speaker name and words.
const xssVtt = join(out, 'xss.csv');
const evil = '"><img src=x onerror=alert(1)>';
const csvq = (t) => '"' + t.replace(/"/g, '""') + '"';
writeFileSync(xssVtt, [
  'recording,start,end,speaker,text',
  `${csvq('rec"><svg onload=alert(3)>')},0.000,4.000,${csvq(evil)},${csvq('Hello </script><script>alert(2)</script> there, and so on')}`,
  `${csvq('rec"><svg onload=alert(3)>')},2.000,6.000,Bob,${csvq('wait </script><script>window.__pwned=1</script> no')}`,
  `${csvq('rec"><svg onload=alert(3)>')},6.500,9.000,${csvq(evil)},right.`,
].join('\n') + '\n');

function generate(name, inputs, extra = []) {
  const html = join(out, name + '.html');
  // Inputs inside the repository are passed relative to it, so the report names them so.
  const rel = inputs.map((p) => (p.startsWith(repo + '/') ? p.slice(repo.length + 1) : p));
  execFileSync(bin, ['-q', 'report', ...rel, '-o', html, ...extra], { cwd: repo });
  // One conversation per report here: its analysis is the first of the JSON's conversations.
  const json = JSON.parse(overtalk(['analyze', ...inputs, '--format', 'json', ...extra])).conversations[0];
  return { html, json, size: statSync(html).size };
}

const longest = longestFourSpeaker();
need(longest ? longest.path : '', 'a 4-speaker AMI meeting');

const browser = await chromium.launch({
  executablePath: browserPath,
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--no-first-run'],
});

async function open(html, viewport = { width: 1400, height: 1000 }) {
  const page = await browser.newPage({ viewport });
  const log = { errors: [], requests: [], dialogs: [] };
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') log.errors.push(m.type() + ': ' + m.text()); });
  page.on('pageerror', (e) => log.errors.push('pageerror: ' + e.message));
  page.on('request', (r) => log.requests.push(r.url()));
  page.on('dialog', (d) => { log.dialogs.push(d.message()); d.dismiss().catch(() => {}); });
  const url = pathToFileURL(html).href;
  const t0 = Date.now();
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForSelector('html[data-ready]', { timeout: 30000 });
  const wall = Date.now() - t0;
  const ready = Number(await page.getAttribute('html', 'data-ready'));
  log.url = url;
  return { page, log, wall, ready };
}

function noNetwork(log, allowed = []) {
  const others = log.requests.filter((u) => u !== log.url && !allowed.includes(u));
  check(others.length === 0, `no request besides the document (${others.slice(0, 3).join(', ') || 'none'})`);
}

async function checkConversation(name, rep) {
  console.log(`\n${name}: ${basename(rep.html)} (${rep.size} bytes)`);
  const { page, log, wall, ready } = await open(rep.html);
  results[name] = { bytes: rep.size, first_render_ms: Math.round(ready), load_wall_ms: wall };
  const conv = rep.json; // single conversation: { recording, ...analysis }
  const names = Object.keys(conv.speakers);
  const embedded = await page.evaluate(() => JSON.parse(document.getElementById('overtalk-data').textContent));
  check(JSON.stringify(sortKeys(embedded.conversations[0].result)) === JSON.stringify(sortKeys(conv)),
    'embedded result == analyze --format json');
  const labels = await page.$$eval('#conv-0 .tl-label[data-lane]', (els) => els.map((e) => e.textContent));
  check(labels.length === names.length && labels.every((l, i) => l === names[i]), `one lane per speaker (${labels.length})`);
  const arrows = await page.$$eval('#conv-0 svg path.arrow', (els) => els.map((e) => e.classList.contains('successful')));
  const nInt = conv.conversation.counts.interruptions;
  const declared = Number(await page.getAttribute('#conv-0 .tl-stage', 'data-arrows'));
  check(declared === nInt, `arrows in the model ${declared} == JSON ${nInt}`);
  if (nInt <= 250) { // beyond that the overview paints them instead of making nodes
    check(arrows.length === nInt, `interruption arrows ${arrows.length} == JSON ${nInt}`);
    check(arrows.filter(Boolean).length === conv.conversation.counts.successful, `solid arrows == successful (${conv.conversation.counts.successful})`);
    check(arrows.length - arrows.filter(Boolean).length === conv.conversation.counts.unsuccessful, `dashed arrows == unsuccessful (${conv.conversation.counts.unsuccessful})`);
  }
  const cells = await page.$$eval('#conv-0 table.matrix td.cell', (els) => els.map((e) => ({
    x: e.dataset.interrupter, f: e.dataset.interruptee, a: Number(e.dataset.attempts), s: Number(e.dataset.successful),
    r: e.dataset.rate === 'null' ? null : Number(e.dataset.rate), text: e.firstChild.textContent })));
  let ok = cells.length === names.length * (names.length - 1);
  for (const c of cells) {
    const p = conv.pairs.find((q) => q.interrupter === c.x && q.interruptee === c.f);
    const want = p ? [p.attempts, p.successful, p.rate_per_min_of_interruptee_floor] : [0, 0, 0];
    if (c.a !== want[0] || c.s !== want[1] || !near(c.r, want[2]) || c.text !== `${want[0]} / ${want[1]}`) { ok = false; console.log('   matrix mismatch', c, want); }
  }
  check(ok, `matrix (${cells.length} cells) == JSON pairs`);
  const shares = await page.$$eval('#conv-0 table.speakers tr[data-speaker]', (rows) => rows.map((r) => ({
    s: r.dataset.speaker,
    talk: r.querySelector('[data-field=talk_share]').dataset.v, floor: r.querySelector('[data-field=floor_share]').dataset.v })));
  check(shares.length === names.length && shares.every((r) => near(JSON.parse(r.talk), conv.speakers[r.s].talk_share) && near(JSON.parse(r.floor), conv.speakers[r.s].floor_share)),
    'talk and floor shares == JSON');
  const hist = await page.$eval('#conv-0 svg.hist', (s) => [Number(s.dataset.total), [...s.querySelectorAll('rect.bar')].reduce((n, r) => n + Number(r.dataset.count), 0)]);
  const ftos = conv.transfers.filter((t) => t.fto !== null).length;
  check(hist[0] === ftos && hist[1] === ftos, `FTO histogram holds ${ftos} transfers`);
  // Click an event: an arrow if any, else any marker.
  const target = (await page.$('#conv-0 svg g.ev path.arrow')) ? '#conv-0 svg g.ev:has(path.arrow)' : '#conv-0 svg g.ev';
  if (await page.$(target)) {
    await clickEvent(page, target);
    const title = await page.$eval('#conv-0 .details h4', (e) => e.textContent);
    const rule = await page.$$eval('#conv-0 .details dt', (els) => els.map((e) => e.textContent));
    check(title.length > 0 && rule.includes('rule') && rule.includes('onset') | rule.includes('time'), `clicking an event shows its details ("${title}")`);
  } else check(false, 'an event to click');
  // Keyboard: focus the stage, zoom in and step to the next event.
  await page.focus('#conv-0 .tl-stage');
  const before = await page.$eval('#conv-0 .range', (e) => e.textContent);
  await page.keyboard.press('+');
  await page.keyboard.press('n');
  await page.waitForTimeout(50);
  const after = await page.$eval('#conv-0 .range', (e) => e.textContent);
  check(before !== after, `keyboard zoom changes the view (${before} → ${after})`);
  check(log.errors.length === 0, `no console errors (${log.errors.slice(0, 3).join(' | ') || 'none'})`);
  noNetwork(log);
  return { page, log };
}

// Clicks the first event of `selector` where a reader would: on its onset dot or marker.
async function clickEvent(page, selector) {
  const at = await page.$eval(selector, (g) => {
    const el = g.querySelector('circle') || g.querySelector('path:last-child');
    const r = el.getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + Math.min(r.height / 2, 4) };
  });
  await page.mouse.click(at.x, at.y);
}

// Zooms with the wheel, 40 steps in and 40 out, and records every animation frame meanwhile.
async function zoomFrames(page) {
  const box = await page.$eval('#conv-0 .tl-stage', (e) => { const r = e.getBoundingClientRect(); return { x: r.left + r.width / 2, y: r.top + 20 }; });
  await page.evaluate(() => { window.__frames = []; let last = performance.now(); function tick(now) { window.__frames.push(now - last); last = now; if (window.__frames.length < 100000) requestAnimationFrame(tick); } requestAnimationFrame(tick); });
  const t0 = Date.now();
  for (let i = 0; i < 80; i++) {
    await page.mouse.move(box.x, box.y);
    await page.mouse.wheel(0, i < 40 ? -120 : 120);
  }
  const wall = Date.now() - t0;
  const frames = await page.evaluate(() => window.__frames.slice(1));
  frames.sort((a, b) => a - b);
  const p95 = frames[Math.floor(frames.length * 0.95)] || 0, worst = frames[frames.length - 1] || 0;
  return { wheel_events: 80, wall_ms: wall, frames: frames.length, p95_frame_ms: Number(p95.toFixed(1)), max_frame_ms: Number(worst.toFixed(1)), frames_over_50ms: frames.filter((f) => f > 50).length };
}

function sortKeys(v) {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys(v[k])]));
  return v;
}

try {
  // 1. Red carpet, with the rule book's classes: the calibrated default keeps one interruption in
  // this text (every overlapped line ends complete), and the README's picture shows the arrows.
  const rc = generate('red-carpet', [rcVtt], ['--classifier', 'rules']);
  const rcPage = await checkConversation('red-carpet', rc);
  const utts = await rcPage.page.$$eval('#conv-0 .transcript .utt', (e) => e.length);
  check(utts > 0, `transcript shown (${utts} utterances)`);
  const link = await rcPage.page.$('#conv-0 .transcript button.ev-link');
  if (link) {
    await link.click();
    const title = await rcPage.page.$eval('#conv-0 .details h4', (e) => e.textContent);
    check(title.length > 0, `transcript event link selects the event ("${title}")`);
  }
  mkdirSync(join(repo, 'docs/img'), { recursive: true });
  await rcPage.page.setViewportSize({ width: 1280, height: 860 });
  await rcPage.page.click('#conv-0 .toolbar button[title^="Show everything"]');
  await rcPage.page.evaluate(() => window.scrollTo(0, 0));
  await rcPage.page.waitForTimeout(100);
  // The picture shows an unsuccessful interruption's details where the classifier finds one.
  const failed = '#conv-0 svg g.ev:has(path.arrow.unsuccessful)';
  await clickEvent(rcPage.page, (await rcPage.page.$(failed)) ? failed : '#conv-0 svg g.ev:has(path.arrow)');
  await rcPage.page.evaluate(() => window.scrollTo(0, 0));
  await rcPage.page.waitForTimeout(100);
  await rcPage.page.screenshot({ path: join(repo, 'docs/img/red-carpet-report.png'), fullPage: false });
  await rcPage.page.screenshot({ path: join(out, 'red-carpet-full.png'), fullPage: true });
  // Print: controls hidden, the transcript unclipped, the timeline kept.
  await rcPage.page.emulateMedia({ media: 'print' });
  const print = await rcPage.page.evaluate(() => ({
    toolbar: getComputedStyle(document.querySelector('.toolbar')).display,
    transcript: getComputedStyle(document.querySelector('.transcript')).overflow,
    canvas: document.querySelector('.tl-canvas').getBoundingClientRect().height > 0,
  }));
  check(print.toolbar === 'none' && print.transcript === 'visible' && print.canvas, 'print style: no controls, full transcript, timeline kept');
  await rcPage.page.pdf({ path: join(out, 'red-carpet.pdf'), format: 'A4', landscape: true, printBackground: true });
  await rcPage.page.emulateMedia({ media: 'screen' });
  await rcPage.page.close();

  // 2. One AMI meeting.
  const es = generate('ES2004a', [es2004a]);
  const esPage = await checkConversation('ES2004a', es);
  await esPage.page.screenshot({ path: join(out, 'ES2004a.png') });
  await esPage.page.close();

  // 3. XSS stays inert.
  console.log('\nxss');
  const xss = generate('xss', [xssVtt]);
  const raw = readFileSync(xss.html, 'utf8');
  const { page: xp, log: xl } = await open(xss.html);
  const imgs = await xp.$$eval('img', (e) => e.length);
  const scripts = await xp.$$eval('script', (e) => e.length);
  const pwned = await xp.evaluate(() => window.__pwned === undefined);
  const label = await xp.$$eval('#conv-0 .tl-label[data-lane]', (els) => els.map((e) => e.textContent));
  const text = await xp.$eval('#conv-0 .transcript', (e) => e.textContent);
  check(imgs === 0, 'no <img> element created');
  check(scripts === 2, `only the report's two <script> elements (${scripts})`);
  check(pwned && xl.dialogs.length === 0, 'no injected script ran, no dialog');
  check(label.includes(evil), 'hostile speaker name shown as text in its lane');
  const heading = await xp.$eval('#conv-0 h2', (e) => e.textContent);
  check(heading === 'rec"><svg onload=alert(3)>', 'hostile recording id shown as text');
  check((await xp.$$eval('svg[onload], [onerror]', (e) => e.length)) === 0, 'no element carries an event-handler attribute');
  check(text.includes('</script><script>window.__pwned=1</script>'), 'hostile words shown as text in the transcript');
  check(!/<img src=x/i.test(raw) && (raw.match(/<\/script>/g) || []).length === 2, 'raw HTML holds no live markup from the input');
  check(xl.errors.length === 0, `no console errors (${xl.errors.join(' | ') || 'none'})`);
  noNetwork(xl);
  // The policy itself: an injected inline script does not run, a fetch is refused.
  const csp = await xp.evaluate(async () => {
    let how = 'appended';
    try { const s = document.createElement('script'); s.textContent = 'window.__csp = 1'; document.body.appendChild(s); } catch (e) { how = 'refused: ' + e.name; }
    let net = 'fetched';
    try { await fetch('http://127.0.0.1:9/x'); } catch (e) { net = 'refused'; }
    return { how, ran: window.__csp === 1, net };
  });
  check(!csp.ran && csp.net === 'refused', `CSP: injected script not run (${csp.how}), fetch ${csp.net}`);
  await xp.close();

  // 4. Embedded audio: clicking an event plays that moment.
  const wav = join(shared, 'real-audio/ami-30s-excerpts/tst00.wav');
  if (existsSync(wav)) {
    console.log('\naudio');
    const au = join(out, 'tst00-audio.html');
    overtalk(['report', join(shared, 'real-audio/ami-30s-excerpts/tst00.rttm'), '--audio', wav, '--embed-audio', '-o', au]);
    const { page: ap, log: al } = await open(au);
    // Step with n to the first event after 3 s, play it with Enter: the audio seeks to 2 s before.
    await ap.focus('#conv-0 .tl-stage');
    let onset = 0;
    for (let i = 0; i < 30 && onset < 3; i++) {
      await ap.keyboard.press('n');
      onset = await ap.$eval('#conv-0 .details', (e) => { const m = e.textContent.match(/\(([\d.]+) s\)/); return m ? Number(m[1]) : 0; });
    }
    await ap.keyboard.press('Enter');
    await ap.waitForTimeout(400);
    const t = await ap.evaluate(() => document.getElementById('overtalk-audio').currentTime);
    check(onset >= 3 && t >= onset - 2.01 && t < onset + 1.5, `Enter on an event at ${onset} s plays from ${t.toFixed(2)} s (2 s of context before it)`);
    await clickEvent(ap, '#conv-0 svg g.ev');
    check((await ap.$('#conv-0 .details button.play')) !== null, 'the details of a clicked event offer a play button');
    check(al.errors.filter((e) => !/play\(\)|autoplay/i.test(e)).length === 0, `no console errors (${al.errors.join(' | ') || 'none'})`);
    noNetwork(al, []);
    results.audio = { bytes: statSync(au).size };
    await ap.close();
    // Linked, not embedded: the page loads the file it names, nothing else.
    const linked = join(out, 'tst00-linked.html');
    overtalk(['report', join(shared, 'real-audio/ami-30s-excerpts/tst00.rttm'), '--audio', wav, '-o', linked]);
    const { page: lp2, log: ll2 } = await open(linked);
    await clickEvent(lp2, '#conv-0 svg g.ev');
    await lp2.waitForTimeout(500);
    const state = await lp2.evaluate(() => { const a = document.getElementById('overtalk-audio'); return { t: a.currentTime, err: a.error ? a.error.code : 0, src: a.getAttribute('src') }; });
    check(state.err === 0 && state.t > 0, `linked audio (${state.src}) plays from the event (currentTime ${state.t.toFixed(2)} s)`);
    check(ll2.errors.filter((e) => !/play\(\)|autoplay/i.test(e)).length === 0, `no console errors (${ll2.errors.join(' | ') || 'none'})`);
    noNetwork(ll2, [pathToFileURL(wav).href]);
    await lp2.close();
    // Separate tracks: one player drives the others, which follow its play, seek and pause.
    const tracks = join(out, 'tst00-tracks.html');
    overtalk(['report', '--track', `A=${wav}`, '--track', `B=${wav}`, '-o', tracks]);
    const { page: tp, log: tl } = await open(tracks);
    await clickEvent(tp, '#conv-0 svg g.ev');
    await tp.waitForTimeout(800);
    const sync = await tp.evaluate(() => {
      const lead = document.getElementById('overtalk-audio');
      const f = document.querySelector('audio.overtalk-follower');
      return { n: document.querySelectorAll('audio').length, lead: lead.currentTime, f: f.currentTime, playing: !lead.paused && !f.paused };
    });
    check(sync.n === 2 && sync.playing && Math.abs(sync.lead - sync.f) < 0.1, `two tracks play together (leader ${sync.lead.toFixed(2)} s, follower ${sync.f.toFixed(2)} s)`);
    await tp.click('input.overtalk-mute[data-index="1"]');
    await tp.evaluate(() => document.getElementById('overtalk-audio').pause());
    await tp.waitForTimeout(300);
    const after = await tp.evaluate(() => {
      const f = document.querySelector('audio.overtalk-follower');
      return { muted: f.muted, paused: f.paused };
    });
    check(after.muted && after.paused, `unticking a track mutes it (${after.muted}); pausing the leader pauses it (${after.paused})`);
    check(tl.errors.filter((e) => !/play\(\)|autoplay/i.test(e)).length === 0, `no console errors (${tl.errors.join(' | ') || 'none'})`);
    noNetwork(tl, [pathToFileURL(wav).href]);
    await tp.close();
  }

  // 5. Score report.
  const vbx = join(shared, 'system-outputs/vbx-ami/AMI_Mix-Headset/test/ES2004a.rttm');
  if (existsSync(vbx)) {
    console.log('\nscore');
    const sh = join(out, 'score-ES2004a.html');
    overtalk(['score', '-r', es2004a, '-s', vbx, '--format', 'html', '-o', sh]);
    const sj = JSON.parse(overtalk(['score', '-r', es2004a, '-s', vbx, '--format', 'json']));
    const { page: sp, log: sl } = await open(sh);
    const lanes = await sp.$$eval('#file-0 .tl-label[data-lane]', (e) => e.map((x) => x.textContent));
    const f = sj.files[0];
    const nRef = new Set(readFileSync(es2004a, 'utf8').split('\n').filter((l) => l.startsWith('SPEAKER')).map((l) => l.split(/\s+/)[7])).size;
    const nHyp = new Set(readFileSync(vbx, 'utf8').split('\n').filter((l) => l.startsWith('SPEAKER')).map((l) => l.split(/\s+/)[7])).size;
    check(lanes.length === nRef + nHyp + 1 && lanes[lanes.length - 1] === 'errors', `reference, hypothesis and error lanes (${lanes.length})`);
    const row = await sp.$$eval('table.score tr[data-recording="ES2004a"] td[data-field]', (e) => Object.fromEntries(e.map((x) => [x.dataset.field, JSON.parse(x.dataset.v)])));
    check(['scored_s', 'correct_s', 'miss_s', 'false_alarm_s', 'confusion_s', 'der', 'jer'].every((k) => near(row[k], f[k])), `per-file row == score --format json (DER ${(f.der * 100).toFixed(2)} %)`);
    const tot = await sp.$$eval('table.score tr.total td[data-field]', (e) => Object.fromEntries(e.map((x) => [x.dataset.field, JSON.parse(x.dataset.v)])));
    check(near(tot.der, sj.total.der) && near(tot.jer, sj.total.jer) && near(tot.miss_s, sj.total.miss_s), 'total row == score --format json');
    check(lanes.slice(nRef, nRef + nHyp).every((l) => / → | \(unmapped\)$/.test(l)), 'hypothesis lanes name the reference speaker they map to');
    await sp.focus('#file-0 .tl-stage');
    await sp.keyboard.press('n');
    const errTitle = await sp.$eval('#file-0 .details h4', (e) => e.textContent);
    check(['miss', 'false-alarm', 'confusion'].includes(errTitle), `n steps to the first error ("${errTitle}")`);
    // Point at the error lane: its piece is described.
    const lane = await sp.$eval('#file-0 .tl-stage', (e, n) => { const r = e.getBoundingClientRect(); return { x: r.left + r.width * 0.5, y: r.top + n * 30 + 15 }; }, nRef + nHyp);
    await sp.mouse.move(lane.x, lane.y);
    await sp.mouse.move(lane.x + 2, lane.y);
    const hov = await sp.$eval('#file-0 .details h4', (e) => e.textContent);
    check(['miss', 'false-alarm', 'confusion', 'correct'].includes(hov), `pointing at the error lane describes the piece ("${hov}")`);
    check(sl.errors.length === 0, `no console errors (${sl.errors.join(' | ') || 'none'})`);
    noNetwork(sl);
    await sp.screenshot({ path: join(out, 'score-ES2004a.png') });
    await sp.close();
  }

  // 6. The longest 4-speaker AMI meeting: first render and zoom responsiveness.
  const name = basename(longest.path, '.rttm');
  console.log(`\nlongest 4-speaker AMI meeting: ${name} (${(longest.end / 60).toFixed(1)} min)`);
  const lg = generate(name, [longest.path]);
  const { page: lp, log: ll, wall, ready } = await open(lg.html);
  results.longest = { meeting: name, minutes: Number((longest.end / 60).toFixed(1)), bytes: lg.size, first_render_ms: Math.round(ready), load_wall_ms: wall,
    talkspurts: lg.json.talkspurts.length, onsets: lg.json.onsets.length, interruptions: lg.json.conversation.counts.interruptions };
  check(ready < 2000, `first view rendered in ${Math.round(ready)} ms (< 2000 ms; wall ${wall} ms)`);
  const arrows = await lp.$$eval('#conv-0 svg path.arrow', (e) => e.length);
  const lgInt = lg.json.conversation.counts.interruptions;
  check(lgInt > 250 ? arrows === 0 : arrows === lgInt, `interruption arrows ${arrows} == JSON ${lgInt}${lgInt > 250 ? ' (painted)' : ''}`);
  const box = await lp.$eval('#conv-0 .tl-stage', (e) => { const r = e.getBoundingClientRect(); return { x: r.left + r.width / 2, y: r.top + 20 }; });
  results.longest.zoom = await zoomFrames(lp);
  const z = results.longest.zoom;
  check(z.p95_frame_ms < 50, `zoom frames: p95 ${z.p95_frame_ms} ms, max ${z.max_frame_ms} ms, ${z.frames_over_50ms} over 50 ms (${z.frames} frames, ${z.wheel_events} wheel events in ${z.wall_ms} ms)`);
  // Drag to pan.
  await lp.mouse.move(box.x, box.y + 40); await lp.mouse.down(); await lp.mouse.move(box.x - 300, box.y + 40, { steps: 10 }); await lp.mouse.up();
  check(ll.errors.length === 0, `no console errors (${ll.errors.join(' | ') || 'none'})`);
  noNetwork(ll);
  await lp.screenshot({ path: join(out, name + '.png') });
  await lp.close();

  // 7. Synthetic 2-hour, 4-speaker meeting with thousands of turns.
  const synthPath = join(out, 'synth2h.rttm');
  const nSeg = syntheticMeeting(synthPath);
  console.log(`\nsynthetic 2-hour meeting (${nSeg} segments)`);
  // The rule book's classes: the synthetic meetings are built for their interruption counts.
  const sy = generate('synth2h', [synthPath], ['--classifier', 'rules']);
  const sr = await open(sy.html);
  const syArrows = await sr.page.$$eval('#conv-0 svg path.arrow', (e) => e.length);
  check(syArrows === sy.json.conversation.counts.interruptions, `interruption arrows ${syArrows} == JSON ${sy.json.conversation.counts.interruptions}`);
  check(sr.ready < 2000, `first view rendered in ${Math.round(sr.ready)} ms (< 2000 ms; wall ${sr.wall} ms)`);
  const zoom = await zoomFrames(sr.page);
  results.synthetic = { segments: nSeg, bytes: sy.size, first_render_ms: Math.round(sr.ready), load_wall_ms: sr.wall,
    talkspurts: sy.json.talkspurts.length, turns: sy.json.turns.length, onsets: sy.json.onsets.length, interruptions: sy.json.conversation.counts.interruptions, zoom };
  check(zoom.p95_frame_ms < 50, `zoom frames: p95 ${zoom.p95_frame_ms} ms, max ${zoom.max_frame_ms} ms, ${zoom.frames_over_50ms} over 50 ms (${zoom.frames} frames)`);
  check(sr.log.errors.length === 0, `no console errors (${sr.log.errors.join(' | ') || 'none'})`);
  noNetwork(sr.log);
  await sr.page.screenshot({ path: join(out, 'synth2h.png') });
  await sr.page.close();

  // 8. Thousands of interruptions: arrows beyond 250 in view are painted, not nodes.
  const crowdPath = join(out, 'crowd2h.rttm');
  const nCrowd = crowdedMeeting(crowdPath);
  console.log(`\ncrowded 2-hour meeting (${nCrowd} segments)`);
  const cr = generate('crowd2h', [crowdPath], ['--classifier', 'rules']);
  const cp = await open(cr.html);
  const nInt = cr.json.conversation.counts.interruptions;
  const declared = Number(await cp.page.getAttribute('#conv-0 .tl-stage', 'data-arrows'));
  check(declared === nInt && nInt > 250, `arrows in the model ${declared} == JSON ${nInt}`);
  check(cp.ready < 2000, `first view rendered in ${Math.round(cp.ready)} ms (< 2000 ms; wall ${cp.wall} ms)`);
  const zoomC = await zoomFrames(cp.page);
  check(zoomC.p95_frame_ms < 50, `zoom frames: p95 ${zoomC.p95_frame_ms} ms, max ${zoomC.max_frame_ms} ms, ${zoomC.frames_over_50ms} over 50 ms (${zoomC.frames} frames)`);
  // Zoomed in to about a minute, the arrows there are nodes again, one per interruption.
  await cp.page.focus('#conv-0 .tl-stage');
  await cp.page.keyboard.press('0');
  for (let i = 0; i < 7; i++) await cp.page.keyboard.press('+');
  await cp.page.waitForTimeout(100);
  const view = await cp.page.evaluate(() => {
    const r = document.querySelector('#conv-0 .range').textContent;
    return { r, n: document.querySelectorAll('#conv-0 svg path.arrow').length };
  });
  const svgBox = await cp.page.$$eval('#conv-0 svg g.ev', (e) => e.length);
  check(view.n > 0 && view.n <= 250 && svgBox >= view.n, `zoomed in (${view.r}): ${view.n} arrows as nodes`);
  results.crowded = { segments: nCrowd, bytes: cr.size, first_render_ms: Math.round(cp.ready), load_wall_ms: cp.wall, turns: cr.json.turns.length, interruptions: nInt, zoom: zoomC };
  check(cp.log.errors.length === 0, `no console errors (${cp.log.errors.join(' | ') || 'none'})`);
  noNetwork(cp.log);
  await cp.page.screenshot({ path: join(out, 'crowd2h.png') });
  await cp.page.close();
} finally {
  await browser.close();
}

writeFileSync(join(out, 'results.json'), JSON.stringify(results, null, 2) + '\n');
console.log('\n' + JSON.stringify(results, null, 2));
if (failures) { console.error(`\n${failures} check(s) failed`); process.exit(1); }
console.log('\nall browser checks passed');
