// Headless-Chromium check of the report's player for tracks of separate devices
// (`--track-offset`, run through ./run.sh): the transport drives tracks that start at different
// times on the timeline, each at its own t − offset, silent before its start and started on
// time when the transport reaches it; a click plays that moment of the timeline.
import { chromium } from 'playwright-core';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
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
  p = await players(page);
  check(p[2].playing && within(p[2].t, p[0].t - 2, 0.1),
    `at ${p[0].t.toFixed(2)} s B plays its own ${p[2].t.toFixed(2)} s (= timeline − 2)`);
  // A seek moves every track to its own time.
  await page.evaluate(() => { document.getElementById('overtalk-audio').currentTime = 10; });
  await page.waitForTimeout(400);
  p = await players(page);
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

await browser.close();
if (failures) { console.log(`\n${failures} check(s) failed`); process.exit(1); }
console.log('\nall checks passed');
