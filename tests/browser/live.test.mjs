// Headless-Chromium check of the live page of `overtalk live --serve` (run through ./run.sh):
// the live_demo example replays a scripted debate (Ann, Bob, Cy; 3 floor changes, 2 committed
// interruptions, 1 backchannel) under debate-mute; the page must show the lanes moving, the
// holder changing Ann -> Bob -> Ann, and counts equal to the events (and to the server's own
// fold, GET /snapshot), with no console error and no request beyond the server.
import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mkdirSync } from 'node:fs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '../..');
const demo = process.env.OVERTALK_LIVE_DEMO || join(repo, 'target/debug/examples/live_demo');
const browserPath = process.env.CHROMIUM || '/usr/bin/chromium';
const out = join(here, 'out');
mkdirSync(out, { recursive: true });

let failures = 0;
function check(cond, what) {
  if (cond) console.log('  ok   ' + what);
  else { failures++; console.log('  FAIL ' + what); }
}

const child = spawn(demo, ['127.0.0.1:0', '1'], { stdio: ['ignore', 'pipe', 'inherit'] });
let stdout = '';
const waitFor = (re) => new Promise((ok, fail) => {
  const timer = setTimeout(() => fail(new Error(`timeout waiting for ${re}: ${stdout}`)), 60000);
  const look = () => { const m = stdout.match(re); if (m) { clearTimeout(timer); ok(m); } };
  child.stdout.on('data', (d) => { stdout += d; look(); });
  look();
});
const [, url] = await waitFor(/listening (http:\/\/\S+)/);
console.log(`live page at ${url}`);

const browser = await chromium.launch({
  executablePath: browserPath,
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1300, height: 700 } });
  const errors = [], foreign = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('request', (r) => { if (!r.url().startsWith(url.replace(/\/$/, ''))) foreign.push(r.url()); });
  await page.goto(url);
  await page.waitForFunction(() => document.getElementById('status').textContent === 'live');
  // Sample the holder and the canvas while the replay runs.
  const holders = [];
  const frames = [];
  const clocks = [];
  const done = waitFor(/done (\d+)/);
  let finished = false;
  done.then(() => { finished = true; });
  while (!finished) {
    const h = await page.textContent('#holder');
    if (holders[holders.length - 1] !== h) holders.push(h);
    frames.push(await page.$eval('#lanes', (c) => c.toDataURL()));
    clocks.push(await page.evaluate(() => window.__live.clock));
    await page.waitForTimeout(250);
  }
  const [, nEvents] = await done;
  await page.waitForTimeout(500);
  const distinctFrames = new Set(frames).size;
  check(distinctFrames >= 3, `lanes move: ${distinctFrames} distinct canvas frames of ${frames.length}`);
  check(clocks[clocks.length - 1] > clocks[0], `audio clock advances on the page (${clocks[0]} -> ${clocks[clocks.length - 1]})`);
  const seen = holders.filter((h) => h !== 'nobody');
  check(JSON.stringify(seen) === JSON.stringify(['Ann', 'Bob', 'Ann']), `holder changes Ann -> Bob -> Ann (${holders.join(' -> ')})`);
  const shown = await page.evaluate(() => ({
    interruptions: +document.getElementById('interruptions').textContent,
    backchannels: +document.getElementById('backchannels').textContent,
    floor_changes: +document.getElementById('floor_changes').textContent,
    events: +document.getElementById('events').textContent,
    rows: [...document.querySelectorAll('#speakers tr')].map((r) => [r.dataset.speaker, +r.querySelector('.made').textContent, +r.querySelector('.interrupted').textContent, +r.querySelector('.bc').textContent]),
  }));
  // The script's end-of-session revision turns Cy's interruption into a backchannel.
  check(shown.interruptions === 1 && shown.backchannels === 2 && shown.floor_changes === 3,
    `counts equal the scripted events after the revision: ${shown.interruptions} interruptions, ${shown.backchannels} backchannels, ${shown.floor_changes} floor changes`);
  check(JSON.stringify(shown.rows) === JSON.stringify([['Ann', 0, 1, 0], ['Bob', 1, 0, 1], ['Cy', 0, 0, 1]]), `per-speaker counts ${JSON.stringify(shown.rows)}`);
  const snap = await (await fetch(url + 'snapshot')).json();
  check(snap.interruptions === shown.interruptions && snap.backchannels === shown.backchannels && snap.floor_changes === shown.floor_changes && snap.events === shown.events,
    `page equals the server's fold (${snap.events} events, ${snap.actions} actions; ${nEvents} replayed)`);
  check(snap.events - snap.actions === Number(nEvents), `every replayed event reached the page (${snap.events - snap.actions} of ${nEvents})`);
  // A page that connects after the replay draws the same from the snapshot alone.
  const late = await browser.newPage();
  await late.goto(url);
  await late.waitForFunction(() => document.getElementById('status').textContent === 'live');
  await late.waitForTimeout(300);
  const lateShown = await late.evaluate(() => [document.getElementById('holder').textContent, +document.getElementById('interruptions').textContent, +document.getElementById('events').textContent]);
  check(JSON.stringify(lateShown) === JSON.stringify([snap.holder, snap.interruptions, snap.events]), `a late page resyncs from the snapshot (${lateShown})`);
  await page.screenshot({ path: join(out, 'live.png') });
  check(errors.length === 0, `no console errors (${errors.join(' | ') || 'none'})`);
  check(foreign.length === 0, `no request beyond the server (${foreign.join(' ') || 'none'})`);
} finally {
  await browser.close();
  child.kill('SIGINT');
}
if (failures) { console.error(`\n${failures} live page check(s) failed`); process.exit(1); }
console.log('\nall live page checks passed');
