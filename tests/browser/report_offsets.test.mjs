// Headless-Chromium check of the report's player for tracks of separate devices
// (`--track-offset`, run through ./run.sh): the transport drives tracks that start at different
// times on the timeline, each at its own t − offset, silent before its start and started on
// time when the transport reaches it; a click plays that moment of the timeline. A track that
// ends after the transport's plays on past its end (and a click past that end plays it there);
// tracks without offsets follow the transport as before.
import { chromium } from 'playwright-core';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '../..');
const bin = process.env.OVERTALK_BIN || join(repo, 'target/debug/overtalk');
const shared = process.env.OVERTALK_SHARED_DATA || resolve(repo, '../shared/data');
const browserPath = process.env.CHROMIUM || '/usr/bin/chromium';
const out = join(here, 'out');
mkdirSync(out, { recursive: true });

let failures = 0;
function check(cond, what) {
  if (cond) { console.log('  ok   ' + what); }
  else { failures++; console.log('  FAIL ' + what); }
}
function need(path, what) {
  if (!existsSync(path)) { console.error(`missing ${what}: ${path}`); process.exit(2); }
}
function overtalk(args) {
  return execFileSync(bin, ['-q', ...args], { encoding: 'utf8', maxBuffer: 1 << 30 });
}
need(bin, 'overtalk binary (cargo build -p overtalk-cli)');
need(browserPath, 'chromium (apt-get install -y chromium)');
const wav = join(shared, 'real-audio/ami-30s-excerpts/tst00.wav');
need(wav, 'the AMI excerpt tst00.wav (shared data)');

const browser = await chromium.launch({
  executablePath: browserPath,
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--no-first-run',
    '--autoplay-policy=no-user-gesture-required'],
});
async function open(html) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') errors.push(m.type() + ': ' + m.text()); });
  page.on('pageerror', (e) => errors.push('pageerror: ' + e.message));
  await page.goto(pathToFileURL(html).href, { waitUntil: 'load' });
  await page.waitForSelector('html[data-ready]', { timeout: 30000 });
  // Every player has its metadata (duration) before the checks.
  await page.waitForFunction(() => Array.prototype.every.call(document.querySelectorAll('audio'), (a) => a.readyState >= 1), null, { timeout: 30000 });
  return { page, errors };
}
// Each player: its track, offset, time and whether it plays.
function players(page) {
  return page.evaluate(() => Array.prototype.map.call(document.querySelectorAll('audio'), (a) => ({
    track: a.getAttribute('data-track'), offset: a.getAttribute('data-offset'),
    t: a.currentTime, playing: !a.paused,
  })));
}
// Waits until the transport is at timeline time `t` or later (its offset is `lead`).
async function until(page, t, lead) {
  await page.waitForFunction(([t, lead]) => document.getElementById('overtalk-audio').currentTime + lead >= t, [t, lead], { timeout: 20000, polling: 20 });
}
const within = (a, b, tol) => Math.abs(a - b) <= tol;
// The players once `ok(players)` holds, or as they are after `ms` milliseconds: a follower
// started or sought is put back in step at the transport's next time update (every 250 ms at
// most), so a check of being in step allows it that long on a loaded machine rather than
// sampling the one moment a late start has not been corrected yet.
async function settled(page, ok, ms) {
  const until = Date.now() + ms;
  let p = await players(page);
  while (!ok(p) && Date.now() < until) {
    await page.waitForTimeout(25);
    p = await players(page);
  }
  return p;
}

console.log('\nplayer at offsets');
// A from 0, B 2 s late, C 1.5 s early (its first 1.5 s before the timeline): A drives.
const html = join(out, 'tst00-offsets.html');
overtalk(['report', '--track', `A=${wav}`, '--track', `B=${wav}`, '--track', `C=${wav}`,
  '--track-offset', 'B=2', '--track-offset', 'C=-1.5', '--max-length-diff', '4', '-o', html]);
{
  const { page, errors } = await open(html);
  let p = await players(page);
  check(JSON.stringify(p.map((x) => [x.track, x.offset])) === JSON.stringify([['A', null], ['C', '-1.500'], ['B', '2.000']]),
    `the players in order with their offsets (${p.map((x) => x.track + ' ' + x.offset).join(', ')})`);
  // Timeline 0.5 s: B waits for its start, C is 1.5 s into its file.
  await page.evaluate(() => { const a = document.getElementById('overtalk-audio'); a.currentTime = 0.5; a.play(); });
  await until(page, 0.9, 0);
  p = await players(page);
  const [a, c, b] = p;
  check(a.playing && c.playing && !b.playing && b.t === 0,
    `at ${a.t.toFixed(2)} s B (+2 s) waits at 0 (${b.t.toFixed(2)} s, ${b.playing ? 'playing' : 'paused'}), C plays`);
  check(within(c.t, a.t + 1.5, 0.1), `C (−1.5 s) is at its own ${c.t.toFixed(2)} s = timeline ${a.t.toFixed(2)} + 1.5`);
  // B starts when the transport reaches 2 s, from its file's start.
  await until(page, 2.3, 0);
  p = await settled(page, (p) => p[2].playing && within(p[2].t, p[0].t - 2, 0.1), 1500);
  check(p[2].playing && within(p[2].t, p[0].t - 2, 0.1),
    `at ${p[0].t.toFixed(2)} s B plays its own ${p[2].t.toFixed(2)} s (= timeline − 2)`);
  // A seek moves every track to its own time.
  await page.evaluate(() => { document.getElementById('overtalk-audio').currentTime = 10; });
  await page.waitForTimeout(400);
  p = await settled(page, (p) => within(p[1].t, p[0].t + 1.5, 0.1) && within(p[2].t, p[0].t - 2, 0.1) && p.every((x) => x.playing), 1500);
  check(within(p[1].t, p[0].t + 1.5, 0.1) && within(p[2].t, p[0].t - 2, 0.1) && p.every((x) => x.playing),
    `after a seek to 10 s: A ${p[0].t.toFixed(2)}, C ${p[1].t.toFixed(2)}, B ${p[2].t.toFixed(2)} s, all playing`);
  // Seeking back before B's start pauses it again.
  await page.evaluate(() => { document.getElementById('overtalk-audio').currentTime = 0.2; });
  await page.waitForTimeout(300);
  p = await players(page);
  check(!p[2].playing && p[2].t === 0 && p[1].playing, `back at ${p[0].t.toFixed(2)} s B is paused at its start again`);
  await page.evaluate(() => document.getElementById('overtalk-audio').pause());
  await page.waitForTimeout(200);
  p = await players(page);
  check(p.every((x) => !x.playing), 'pausing the transport pauses every track');
  check(errors.filter((e) => !/play\(\)|autoplay/i.test(e)).length === 0, `no console errors (${errors.join(' | ') || 'none'})`);
  await page.close();
}

// Every track early: the transport's own first second is before the timeline and never played.
const early = join(out, 'tst00-early.html');
overtalk(['report', '--track', `A=${wav}`, '--track', `B=${wav}`, '--track-offset', 'A=-1',
  '--track-offset', 'B=-0.5', '-o', early]);
{
  const { page, errors } = await open(early);
  await page.waitForTimeout(200);
  let p = await players(page);
  check(p[0].track === 'B' && p[0].offset === '-0.500' && p[0].t === 0.5 && p[1].offset === '-1.000',
    `the transport (B, −0.5 s) waits at its own 0.5 s, the timeline's start (${p.map((x) => x.track + ' ' + x.t.toFixed(3)).join(', ')})`);
  // An event at t plays from t − 2 s of the timeline: the transport at its own t − 2 + 0.5.
  await page.evaluate(() => { document.getElementById('overtalk-audio').currentTime = 0.5; });
  await page.focus('#conv-0 .tl-stage');
  let onset = 0;
  for (let i = 0; i < 60 && onset < 4; i++) {
    await page.keyboard.press('n');
    onset = await page.$eval('#conv-0 .details', (e) => { const m = e.textContent.match(/\(([\d.]+) s\)/); return m ? Number(m[1]) : 0; });
  }
  await page.keyboard.press('Enter');
  await page.waitForTimeout(300);
  p = await players(page);
  check(onset >= 4 && within(p[0].t - 0.5, onset - 2, 0.4) && within(p[1].t - 1, onset - 2, 0.4) && p.every((x) => x.playing),
    `Enter on the event at ${onset} s plays the timeline from ${(p[0].t - 0.5).toFixed(2)} s: B at ${p[0].t.toFixed(2)}, A at ${p[1].t.toFixed(2)} s of their files`);
  check(errors.filter((e) => !/play\(\)|autoplay/i.test(e)).length === 0, `no console errors (${errors.join(' | ') || 'none'})`);
  await page.close();
}

// `from` to `to` seconds of a WAV file, written to `path` (the header's chunks kept, the data
// cut at whole frames): tracks of known lengths.
function cutWav(src, from, to, path) {
  const b = readFileSync(src);
  let fmt = null, data = null;
  for (let at = 12; at + 8 <= b.length;) {
    const id = b.toString('latin1', at, at + 4), size = b.readUInt32LE(at + 4);
    if (id === 'fmt ') fmt = b.subarray(at, at + 8 + size);
    if (id === 'data') { data = b.subarray(at + 8, at + 8 + size); break; }
    at += 8 + size + (size & 1);
  }
  const rate = fmt.readUInt32LE(12), frame = fmt.readUInt16LE(20);
  const body = data.subarray(Math.round(from * rate) * frame, Math.round(to * rate) * frame);
  const head = Buffer.alloc(20);
  head.write('RIFF', 0, 'latin1'); head.writeUInt32LE(4 + fmt.length + 8 + body.length, 4);
  head.write('WAVE', 8, 'latin1'); head.write('data', 12, 'latin1'); head.writeUInt32LE(body.length, 16);
  writeFileSync(path, Buffer.concat([head.subarray(0, 12), fmt, head.subarray(12), body]));
}
// Clicks a link of the page to timeline time `ms` (as the transcript's time links do): the
// page's own play(ms, ms + 5 s). Returns every player's time and state right after it.
function clickAt(page, ms) {
  return page.evaluate((ms) => {
    const s = document.createElement('span');
    s.className = 'seek'; s.setAttribute('data-conv', '0'); s.setAttribute('data-t', String(ms));
    document.body.appendChild(s); s.click(); s.remove();
    return Array.prototype.map.call(document.querySelectorAll('audio'), (a) => ({
      t: a.currentTime, d: a.duration, playing: !a.paused,
    }));
  }, ms);
}

// Which players show their controls, and whether each plays: `Guest playing`.
function controlsShown(page) {
  return page.evaluate(() => Array.prototype.filter.call(document.querySelectorAll('audio'), (a) => a.controls)
    .map((a) => a.getAttribute('data-track') + (a.paused ? ' paused' : ' playing')).join(', '));
}

console.log('\nplayer: a track that ends after the transport');
// Host from 0 s, 10 s long, drives; Guest from +5 s, 10 s long, ends at 15 s on the timeline.
const host = join(out, 'tst00-0-10.wav'), guest = join(out, 'tst00-10-20.wav');
cutWav(wav, 0, 10, host);
cutWav(wav, 10, 20, guest);
const tail = join(out, 'tst00-tail.html');
overtalk(['report', '--track', `Host=${host}`, '--track', `Guest=${guest}`, '--track-offset', 'Guest=5',
  '--max-length-diff', '6', '-o', tail]);
{
  const { page, errors } = await open(tail);
  let p = await players(page);
  check(JSON.stringify(p.map((x) => [x.track, x.offset])) === JSON.stringify([['Host', null], ['Guest', '5.000']]),
    `Host drives, Guest at +5 s (${p.map((x) => x.track + ' ' + x.offset).join(', ')})`);
  // Play from 9 s: Host ends at 10 s, Guest plays on past it.
  await page.evaluate(() => { const a = document.getElementById('overtalk-audio'); a.currentTime = 9; a.play(); });
  await page.waitForFunction(() => document.getElementById('overtalk-audio').ended, null, { timeout: 20000, polling: 10 });
  // The wall clock read before a snapshot bounds how far a playing track can have gone since:
  // a track at `t` then is at most `t` + (now − that reading) later, whatever the polling lag.
  const endedAt = Date.now();
  p = await players(page);
  const guestAtEnd = p[1].t;
  check(!p[0].playing && p[1].playing && within(p[1].t, 5, 0.15),
    `when Host ends (${p[0].t.toFixed(3)} s) Guest plays on from its own ${p[1].t.toFixed(3)} s (timeline 10 s)`);
  // The controls shown are the transport's: Guest's, whose button shows "pause" while it plays.
  let shown = await controlsShown(page);
  check(shown === 'Guest playing', `while Guest plays on, the controls shown are ${shown}`);
  await page.waitForTimeout(1500);
  p = await players(page);
  let want = guestAtEnd + (Date.now() - endedAt) / 1000;
  // Playing, and never ahead of the clock (a loaded machine may stall it, never speed it).
  check(!p[0].playing && p[1].playing && p[1].t <= want + 0.05 && p[1].t > 6,
    `1.5 s later Guest still plays, at ${p[1].t.toFixed(3)} s (at most ${want.toFixed(3)}), Host at its end ${p[0].t.toFixed(3)} s`);
  // Host's play button pauses and resumes the track that plays on; Host stays at its end.
  await page.evaluate(() => { document.getElementById('overtalk-audio').play().catch(() => {}); });
  await page.waitForTimeout(300);
  p = await players(page);
  const held = p[1].t;
  check(!p[0].playing && !p[1].playing && p[0].t === (await page.evaluate(() => document.getElementById('overtalk-audio').duration)),
    `Host's play button pauses Guest at ${held.toFixed(3)} s, Host back at its end ${p[0].t.toFixed(3)} s`);
  await page.waitForTimeout(300);
  p = await players(page);
  check(p[1].t === held && !p[1].playing, `Guest stays paused at ${p[1].t.toFixed(3)} s`);
  await page.evaluate(() => { document.getElementById('overtalk-audio').play().catch(() => {}); });
  await page.waitForTimeout(300);
  p = await players(page);
  check(!p[0].playing && p[1].playing && p[1].t > held, `pressed again, Guest resumes (${p[1].t.toFixed(3)} s)`);
  // A click past Host's end plays that moment of Guest: Host held at its end, not restarted.
  const clicked = Date.now();
  let q = await clickAt(page, 12000);
  check(q[0].t === q[0].d && !q[0].playing && q[1].t === 7 && q[1].playing,
    `a click at 12 s: Host at its end (${q[0].t} of ${q[0].d} s), Guest at exactly its own ${q[1].t} s, playing`);
  await page.waitForTimeout(700);
  p = await players(page);
  want = 7 + (Date.now() - clicked) / 1000;
  check(!p[0].playing && p[0].t === q[0].d && p[1].playing && p[1].t > 7.2 && p[1].t <= want + 0.05,
    `0.7 s later Guest at ${p[1].t.toFixed(3)} s (at most ${want.toFixed(3)}), Host still at its end`);
  shown = await controlsShown(page);
  check(shown === 'Guest playing', `after a click at 12 s the controls shown are ${shown}`);
  // Guest's own pause button pauses every track; its play button resumes.
  await page.evaluate(() => { document.querySelectorAll('audio')[1].pause(); });
  await page.waitForTimeout(200);
  p = await players(page);
  shown = await controlsShown(page);
  check(!p[0].playing && !p[1].playing && shown === 'Guest paused', `Guest's pause button: every track paused, ${shown}`);
  await page.evaluate(() => { document.querySelectorAll('audio')[1].play().catch(() => {}); });
  await page.waitForTimeout(200);
  shown = await controlsShown(page);
  check(shown === 'Guest playing', `Guest's play button: ${shown}`);
  // A click before Host's end gives it the transport back: both at their own times.
  q = await clickAt(page, 8000);
  check(q[0].t === 8 && q[0].playing, `a click at 8 s: Host at exactly ${q[0].t} s, playing`);
  shown = await controlsShown(page);
  check(shown === 'Host playing', `back within Host's stretch the controls shown are ${shown}`);
  await page.waitForTimeout(400);
  p = await players(page);
  check(p[0].playing && p[1].playing && within(p[1].t, p[0].t - 5, 0.1),
    `then Host ${p[0].t.toFixed(3)} s, Guest ${p[1].t.toFixed(3)} s (= timeline − 5), both playing`);
  // The click's stretch ends at 13 s, past Host's end: Guest plays it and stops there.
  await page.waitForFunction(() => document.querySelectorAll('audio')[1].paused, null, { timeout: 20000, polling: 20 });
  p = await players(page);
  check(!p[0].playing && !p[1].playing && within(p[1].t, 8, 0.3),
    `the click's stretch (to 13 s) ends on Guest at its own ${p[1].t.toFixed(3)} s, Host at its end ${p[0].t.toFixed(3)} s`);
  // Pausing during the tail at double speed: the speed carries over to Guest.
  await page.evaluate(() => { document.getElementById('overtalk-audio').playbackRate = 2; });
  q = await clickAt(page, 11000);
  await page.waitForTimeout(500);
  const rates = await page.evaluate(() => Array.prototype.map.call(document.querySelectorAll('audio'), (a) => a.playbackRate));
  p = await players(page);
  check(rates.join(' ') === '2 2' && p[1].playing && p[1].t > 6.6,
    `at speed 2 a click at 11 s plays Guest from exactly ${q[1].t} s, at ${p[1].t.toFixed(3)} s 0.5 s later (rates ${rates.join(' ')})`);
  check(errors.filter((e) => !/play\(\)|autoplay/i.test(e)).length === 0, `no console errors (${errors.join(' | ') || 'none'})`);
  await page.close();
}

console.log('\nplayer: tracks without offsets');
// Two tracks of one recorder: the second follows the first exactly, and stops with it.
const same = join(out, 'tst00-same.html');
overtalk(['report', '--track', `A=${wav}`, '--track', `B=${wav}`, '-o', same]);
{
  const { page, errors } = await open(same);
  let p = await players(page);
  check(p.every((x) => x.offset === null), 'no player carries an offset');
  await page.evaluate(() => { const a = document.getElementById('overtalk-audio'); a.currentTime = 12; a.play(); });
  await page.waitForTimeout(500);
  p = await settled(page, (p) => p.every((x) => x.playing) && within(p[1].t, p[0].t, 0.06), 1500);
  check(p.every((x) => x.playing) && within(p[1].t, p[0].t, 0.06),
    `after a seek to 12 s A ${p[0].t.toFixed(3)}, B ${p[1].t.toFixed(3)} s, both playing`);
  const q = await clickAt(page, 20000);
  const clicked = Date.now();
  check(q[0].t === 20 && q[0].playing, `a click at 20 s: A at exactly ${q[0].t} s, playing`);
  await page.waitForTimeout(300);
  p = await settled(page, (p) => p.every((x) => x.playing) && within(p[1].t, p[0].t, 0.06), 1000);
  const played = (Date.now() - clicked) / 1000;
  check(p.every((x) => x.playing) && within(p[1].t, p[0].t, 0.06) && p[0].t > 20 && p[0].t <= 20 + played + 0.05,
    `then A ${p[0].t.toFixed(3)} (at most ${(20 + played).toFixed(3)}), B ${p[1].t.toFixed(3)} s, both playing`);
  await page.evaluate(() => document.getElementById('overtalk-audio').pause());
  await page.waitForTimeout(200);
  p = await players(page);
  check(p.every((x) => !x.playing) && p[1].t === p[0].t, `pausing A pauses B at the same time (${p[0].t.toFixed(3)} s)`);
  // A click near the end: A ends, B stops at its end with it.
  const d = await page.evaluate(() => Array.prototype.map.call(document.querySelectorAll('audio'), (a) => a.duration));
  await clickAt(page, Math.round((d[0] - 0.6) * 1000));
  await page.waitForFunction(() => document.getElementById('overtalk-audio').ended, null, { timeout: 20000, polling: 10 });
  await page.waitForTimeout(300);
  p = await players(page);
  check(p.every((x) => !x.playing) && p[0].t === d[0] && p[1].t === d[1],
    `A ends at ${p[0].t} s and B stops at its end ${p[1].t} s with it`);
  check(errors.filter((e) => !/play\(\)|autoplay/i.test(e)).length === 0, `no console errors (${errors.join(' | ') || 'none'})`);
  await page.close();
}

await browser.close();
if (failures) { console.log(`\n${failures} check(s) failed`); process.exit(1); }
console.log('\nall checks passed');
