// overtalk report: draws the timelines from the embedded JSON. Untrusted strings (speaker
// names, words, file names) only ever reach the page through textContent, setAttribute on
// inert attributes, or canvas text; nothing is parsed as HTML.
(function () {
  'use strict';
  var PALETTE = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#F0E442', '#000000'];
  // Error colours: confusion is a colour of no speaker (the wine of Paul Tol's palette), so a
  // confused stretch is never mistaken for a speaker's speech.
  var ERR = { miss: '#D55E00', 'false-alarm': '#56B4E9', confusion: '#882255', correct: '#BBBBBB' };
  var LANE_H = 30, BAND_H = 12, AXIS_H = 22, LABEL_W = 150;
  var NS = 'http://www.w3.org/2000/svg';
  var dataNode = document.getElementById('overtalk-data');
  var data = JSON.parse(dataNode.textContent);
  var audio = document.getElementById('overtalk-audio');
  var stopAt = null;
  // Where a track starts on the report's timeline (data-offset, seconds; `--track-offset`):
  // at timeline time t it plays its own second t − offset. A single recording has none.
  function offsetOf(a) {
    var v = a ? Number(a.getAttribute('data-offset')) : 0;
    return isFinite(v) ? v : 0;
  }
  var lead = offsetOf(audio);
  // Separate tracks (one per speaker) play together. The first track's player (the one with
  // controls: it starts first on the timeline) drives them: while the timeline is within its
  // stretch, its time is the transport and every other track follows its play, pause, seek
  // and speed; a follower that drifts more than 50 ms is put back in step. Each follower is at
  // its own offset: silent (paused) before its start and after its end, started on time when
  // the transport reaches its start. A track that goes on after the first one's end takes the
  // transport over (`transport`, the track whose time is the timeline's) when the first one
  // ends, or when a seek lands past its end, and plays to its own end; the first player then
  // stays at its end, and its play button pauses and resumes the track playing on. A seek
  // inside the first one's stretch gives the transport back to it.
  //
  // The controls shown are the transport's: when a track takes the transport over, its own
  // controls replace the first player's (hidden, held at its end), so the play button shows
  // "pause" while that track plays on, and its seek bar and speed are the ones that act; they
  // go back to the first player with the transport.
  var followers = Array.prototype.slice.call(document.querySelectorAll('audio.overtalk-follower'));
  var transport = audio;
  // The track that held the transport when every track had ended (none took it over): its
  // play button then plays the timeline again from the start (the browser restarts it at its
  // own start, which may be mid-timeline).
  var finished = null;
  function hand(c) {
    transport = c;
    finished = null;
    if (!followers.length) return;
    [audio].concat(followers).forEach(function (a) { a.controls = a === c; });
  }
  // The track's own time at timeline time t, and whether it sounds there (before its
  // metadata its length is unknown: it sounds from its start on). The first player holds the
  // timeline up to its end, its own start too (nothing sounds before every track's start).
  function localOf(a, t) { return t - offsetOf(a); }
  function covers(a, t) {
    var local = localOf(a, t);
    return (a === audio || local >= 0) && (!isFinite(a.duration) || local < a.duration);
  }
  function endOf(a) { return isFinite(a.duration) ? offsetOf(a) + a.duration : Infinity; }
  // The track that holds the transport at timeline time t: the first player while the
  // timeline is within its stretch, else the track sounding there that ends last, else (past
  // every track's end) the first player.
  function pick(t) {
    if (covers(audio, t)) return audio;
    var best = audio;
    followers.forEach(function (f) {
      if (covers(f, t) && (best === audio || endOf(f) > endOf(best))) best = f;
    });
    return best;
  }
  // The timeline time the transport is at, and a seek to timeline time t (never before the
  // timeline's start, nor before the transport's own).
  function now() { return transport.currentTime + offsetOf(transport); }
  function seek(t) {
    finished = null;
    t = Math.max(0, t);
    var c = pick(t);
    if (c !== transport) {
      var was = transport;
      hand(c);
      if (was !== audio && !was.paused) was.pause();
      if (c !== audio && !audio.paused) audio.pause();
    }
    c.currentTime = Math.max(0, t - offsetOf(c));
    if (c !== audio) follow(true);
  }
  if (audio) {
    audio.addEventListener('timeupdate', function () {
      if (transport === audio && stopAt !== null && now() >= stopAt) { audio.pause(); stopAt = null; }
    });
    if (lead < 0) {
      // The transport's first seconds are before the timeline's start: never played.
      var toStart = function () {
        try { if (audio.currentTime + lead < 0) audio.currentTime = -lead; } catch (e) { /* not seekable yet */ }
      };
      audio.addEventListener('loadedmetadata', toStart);
      audio.addEventListener('seeked', toStart);
      audio.addEventListener('play', toStart);
    }
  }
  var waiting = followers.map(function () { return null; });
  function follow(force) {
    var t = now(), running = !transport.paused;
    waiting.forEach(function (w, i) { if (w !== null) { clearTimeout(w); waiting[i] = null; } });
    [audio].concat(followers).forEach(function (f, j) {
      if (f === transport) return;
      var i = j - 1;
      // The first player, when not the transport, is held at its end: the timeline is past
      // it (the track that took over may report a time a few ms short of that end).
      var local = localOf(f, t);
      var inside = f !== audio && local >= 0 && (!isFinite(f.duration) || local < f.duration);
      if (!inside) {
        if (!f.paused) f.pause();
        try {
          var at = local < 0 && f !== audio ? 0 : f.duration;
          if (isFinite(at) && f.currentTime !== at) f.currentTime = at;
        } catch (e) { /* not seekable yet */ }
        if (i >= 0 && local < 0 && running) {
          waiting[i] = setTimeout(function () { waiting[i] = null; follow(true); },
            -local * 1000 / (transport.playbackRate || 1));
        }
        return;
      }
      try {
        if (force || Math.abs(f.currentTime - local) > 0.05) f.currentTime = local;
      } catch (e) { /* not seekable yet */ }
      if (running && f.paused) {
        var p = f.play();
        if (p && p.catch) p.catch(function () {});
      } else if (!running && !f.paused) {
        f.pause();
      }
    });
  }
  // The transport's end: the track that sounds on at the timeline time where it ended (its
  // offset plus its length: its last reported time can fall short of its length), if any,
  // takes it over and plays on; else every track stops.
  function ended() {
    var t = isFinite(transport.duration) ? endOf(transport) : now(), next = pick(t);
    if (next === transport || !covers(next, t)) {
      follow(true);
      finished = transport;
      return;
    }
    hand(next);
    try {
      if (Math.abs(next.currentTime - localOf(next, t)) > 0.05) next.currentTime = localOf(next, t);
    } catch (e) { /* not seekable yet */ }
    if (next.paused) {
      var p = next.play();
      if (p && p.catch) p.catch(function () {});
    }
    follow(false);
  }
  if (audio && followers.length) {
    // A track holding the transport whose own controls move it into the first player's
    // stretch (a seek there, or play after its end, which starts it again from its own
    // start) gives the transport back at that moment of the timeline, playing if it was.
    var back = function (f) {
      // Played again after every track's end, the browser restarts it at its own start.
      var t = finished === f && f.currentTime < 0.05 ? 0 : now();
      if (pick(t) === f || !covers(audio, t)) return false;
      var was = !f.paused;
      f.pause();
      seek(t);
      if (was && audio.paused) {
        var p = audio.play();
        if (p && p.catch) p.catch(function () {});
      }
      follow(true);
      return true;
    };
    followers.forEach(function (f) {
      f.addEventListener('play', function () { if (f === transport && !back(f)) follow(true); });
      f.addEventListener('pause', function () {
        if (f !== transport) return;
        if (f.ended) ended(); else follow(true);
      });
      f.addEventListener('ended', function () { if (f === transport) ended(); });
      f.addEventListener('seeked', function () {
        if (f !== transport) return;
        // A seek of its own bar while paused is no replay after the end.
        if (f.paused) finished = null;
        if (!back(f)) follow(true);
      });
      f.addEventListener('ratechange', function () {
        if (f !== transport) return;
        [audio].concat(followers).forEach(function (o) {
          if (o !== f && o.playbackRate !== f.playbackRate) o.playbackRate = f.playbackRate;
        });
      });
      f.addEventListener('timeupdate', function () {
        if (f !== transport) return;
        if (stopAt !== null && now() >= stopAt) { f.pause(); stopAt = null; return; }
        follow(false);
      });
    });
    audio.addEventListener('play', function () {
      if (transport === audio) { follow(true); return; }
      // Its play button while another track holds the transport (this player is at its end;
      // playing it would restart it): pauses or resumes that track. Past every track's end it
      // plays the timeline again from this player's start.
      if (covers(transport, now())) {
        audio.pause();
        try { audio.currentTime = audio.duration; } catch (e) { /* not seekable yet */ }
        var p = transport.paused ? transport.play() : (transport.pause(), null);
        if (p && p.catch) p.catch(function () {});
      } else {
        hand(audio);
        follow(true);
      }
    });
    audio.addEventListener('pause', function () {
      if (transport !== audio) return;
      if (audio.ended) ended(); else follow(true);
    });
    audio.addEventListener('ended', function () { if (transport === audio) ended(); });
    audio.addEventListener('seeked', function () {
      if (transport === audio) { follow(true); return; }
      // A seek of this player into its own stretch (its controls) takes the transport back;
      // the tracks play on if they were playing.
      if (!(audio.currentTime < audio.duration)) return;
      var old = transport, was = !old.paused;
      hand(audio);
      if (was) old.pause();
      if (was && audio.paused) {
        var p = audio.play();
        if (p && p.catch) p.catch(function () {});
      }
      follow(true);
    });
    audio.addEventListener('timeupdate', function () { if (transport === audio) follow(false); });
    audio.addEventListener('ratechange', function () {
      followers.forEach(function (f) {
        if (f.playbackRate !== audio.playbackRate) f.playbackRate = audio.playbackRate;
      });
      follow(true);
    });
    Array.prototype.forEach.call(document.querySelectorAll('input.overtalk-mute'), function (box) {
      box.addEventListener('change', function () {
        var i = Number(box.getAttribute('data-index'));
        var a = i === 0 ? audio : followers[i - 1];
        if (a) a.muted = !box.checked;
      });
    });
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function sv(tag, attrs) {
    var e = document.createElementNS(NS, tag);
    for (var k in attrs) if (Object.prototype.hasOwnProperty.call(attrs, k)) e.setAttribute(k, String(attrs[k]));
    return e;
  }
  function secs(ms) {
    if (ms === null || ms === undefined) return '–';
    return (ms / 1000).toFixed(3) + ' s';
  }
  // m:ss.ss below a minute, m:ss.s (h:mm:ss.s) above. The milliseconds are rounded once, half
  // away from zero, to the last digit shown and only then split into minutes and seconds, as
  // the tables round them: 1115 ms is 0:01.12 (toFixed on 1.115 gives 1.11), and 119960 ms is
  // 2:00.0, never 1:60.0.
  function clock(ms) {
    var neg = ms < 0; ms = Math.abs(ms);
    var below = ms < 60000, per = below ? 100 : 10;
    var n = Math.floor(ms / (1000 / per) + 0.5);
    var whole = Math.floor(n / per), frac = String(n % per).padStart(below ? 2 : 1, '0');
    var m = Math.floor(whole / 60), h = Math.floor(m / 60);
    var ss = String(whole % 60).padStart(2, '0') + '.' + frac;
    var out = h > 0 ? h + ':' + String(m % 60).padStart(2, '0') + ':' + ss : m + ':' + ss;
    return (neg ? '−' : '') + out;
  }
  function play(t0, t1) {
    if (!audio) return;
    try {
      seek(t0 / 1000);
      stopAt = t1 / 1000;
      var p = transport.play();
      if (p && p.catch) p.catch(function () {});
    } catch (e) { /* not seekable yet */ }
  }
  function lowerBound(arr, t, key) {
    var lo = 0, hi = arr.length;
    while (lo < hi) { var mid = (lo + hi) >> 1; if (key(arr[mid]) < t) lo = mid + 1; else hi = mid; }
    return lo;
  }

  // ---------------------------------------------------------------- generic timeline
  // model: { lanes: [{label, colour, segs: [[a, b, kind, info]]}], band: [[a, b, lane]],
  //          shade: [[a, b, [lanes]]], ticks: [{t, lane, ev}], arrows: [{t, from, to, solid, ev}],
  //          marks: [{t, lane, ev, cls}], events: [{t, ...}], t0, t1,
  //          describe(ev) -> {title, lines, t, a, b}, describeSeg(lane, seg) }
  function Timeline(root, model) {
    var self = this;
    this.model = model;
    this.root = root;
    var span = Math.max(1, model.t1 - model.t0);
    this.full = { a: model.t0 - span * 0.01, b: model.t1 + span * 0.01 };
    this.view = { a: this.full.a, b: this.full.b };
    this.selected = -1;
    var bar = el('div', 'toolbar');
    bar.setAttribute('role', 'toolbar');
    bar.setAttribute('aria-label', 'Timeline controls');
    function button(label, title, fn, cls) {
      var b = el('button', cls || '', label);
      b.type = 'button'; b.title = title; b.setAttribute('aria-label', title);
      b.addEventListener('click', fn);
      bar.appendChild(b);
      return b;
    }
    button('+', 'Zoom in (+)', function () { self.zoom(0.5); });
    button('−', 'Zoom out (−)', function () { self.zoom(2); });
    button('⟲', 'Show everything (0)', function () { self.reset(); });
    button('◀', 'Previous event (p)', function () { self.step(-1); }, 'prev');
    button('▶', 'Next event (n)', function () { self.step(1); }, 'next');
    this.range = el('span', 'range');
    bar.appendChild(this.range);
    root.appendChild(bar);
    var wrap = el('div', 'tl-wrap');
    var labels = el('div', 'tl-labels');
    model.lanes.forEach(function (l, i) {
      var d = el('div', 'tl-label', l.label);
      d.title = l.label;
      d.setAttribute('data-lane', i);
      var sw = el('span', 'swatch');
      sw.style.background = l.colour;
      d.insertBefore(sw, d.firstChild);
      labels.appendChild(d);
    });
    if (model.band) labels.appendChild(el('div', 'tl-label band-label', model.bandLabel || 'floor'));
    wrap.appendChild(labels);
    var stage = el('div', 'tl-stage');
    stage.tabIndex = 0;
    stage.setAttribute('role', 'application');
    stage.setAttribute('aria-roledescription', 'timeline');
    stage.setAttribute('aria-label', (model.name || 'Timeline') + '. Arrow keys pan, + and − zoom, 0 resets, n and p step through events, Enter plays the selected event.');
    stage.setAttribute('data-arrows', String(model.arrows.length));
    this.canvas = document.createElement('canvas');
    this.canvas.className = 'tl-canvas';
    this.svg = sv('svg', { 'class': 'tl-svg' });
    var defs = sv('defs', {});
    var marker = sv('marker', { id: 'ah-' + model.id, viewBox: '0 0 10 10', refX: '9', refY: '5', markerWidth: '8', markerHeight: '8', markerUnits: 'userSpaceOnUse', orient: 'auto-start-reverse' });
    marker.appendChild(sv('path', { d: 'M0,0 L10,5 L0,10 z', fill: '#222' }));
    defs.appendChild(marker);
    this.svg.appendChild(defs);
    this.layer = sv('g', {});
    this.svg.appendChild(this.layer);
    // One set of listeners for every event node, however many the view holds.
    function evOf(e) {
      var g = e.target.closest ? e.target.closest('g.ev') : null;
      return g ? Number(g.getAttribute('data-i')) : -1;
    }
    this.layer.addEventListener('pointerover', function (e) { var i = evOf(e); if (i >= 0) self.show(model.events[i], false); });
    this.layer.addEventListener('focusin', function (e) { var i = evOf(e); if (i >= 0) self.show(model.events[i], false); });
    this.layer.addEventListener('click', function (e) { var i = evOf(e); if (i >= 0) { e.stopPropagation(); self.select(i, true); } });
    this.layer.addEventListener('keydown', function (e) {
      var i = evOf(e);
      if (i >= 0 && (e.key === 'Enter' || e.key === ' ')) { e.preventDefault(); e.stopPropagation(); self.select(i, true); }
    });
    stage.appendChild(this.canvas);
    stage.appendChild(this.svg);
    wrap.appendChild(stage);
    root.appendChild(wrap);
    this.stage = stage;
    this.height = model.lanes.length * LANE_H + (model.band ? BAND_H + 4 : 0) + AXIS_H;
    stage.style.height = this.height + 'px';
    this.details = root.parentNode.querySelector('.details');
    this.bindInput();
    this.resize();
    var ro = typeof ResizeObserver !== 'undefined' ? new ResizeObserver(function () { self.resize(); }) : null;
    if (ro) ro.observe(stage); else window.addEventListener('resize', function () { self.resize(); });
  }
  Timeline.prototype.resize = function () {
    var w = Math.max(100, this.stage.clientWidth);
    var dpr = window.devicePixelRatio || 1;
    this.width = w;
    this.canvas.width = Math.round(w * dpr);
    this.canvas.height = Math.round(this.height * dpr);
    this.canvas.style.width = w + 'px';
    this.canvas.style.height = this.height + 'px';
    this.svg.setAttribute('width', w);
    this.svg.setAttribute('height', this.height);
    this.dpr = dpr;
    this.draw();
  };
  Timeline.prototype.x = function (t) { return (t - this.view.a) / (this.view.b - this.view.a) * this.width; };
  Timeline.prototype.t = function (x) { return this.view.a + x / this.width * (this.view.b - this.view.a); };
  Timeline.prototype.laneY = function (i) { return i * LANE_H; };
  Timeline.prototype.schedule = function () {
    var self = this;
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(function () { self.pending = false; self.draw(); });
  };
  Timeline.prototype.setView = function (a, b) {
    var minSpan = 200, full = this.full, span = b - a;
    if (span < minSpan) { var c = (a + b) / 2; a = c - minSpan / 2; b = c + minSpan / 2; span = minSpan; }
    var fullSpan = full.b - full.a;
    if (span > fullSpan) { a = full.a; b = full.b; }
    else {
      if (a < full.a) { b += full.a - a; a = full.a; }
      if (b > full.b) { a -= b - full.b; b = full.b; }
    }
    this.view.a = a; this.view.b = b;
    this.schedule();
  };
  Timeline.prototype.zoom = function (f, at) {
    var v = this.view;
    if (at === undefined) at = (v.a + v.b) / 2;
    this.setView(at - (at - v.a) * f, at + (v.b - at) * f);
  };
  Timeline.prototype.pan = function (frac) {
    var d = (this.view.b - this.view.a) * frac;
    this.setView(this.view.a + d, this.view.b + d);
  };
  Timeline.prototype.reset = function () { this.setView(this.full.a, this.full.b); };
  Timeline.prototype.bindInput = function () {
    var self = this, stage = this.stage, drag = null;
    stage.addEventListener('wheel', function (e) {
      e.preventDefault();
      var r = stage.getBoundingClientRect();
      if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) {
        self.pan((e.deltaX || e.deltaY) / Math.max(1, self.width));
      } else {
        self.zoom(Math.pow(1.0015, e.deltaY), self.t(e.clientX - r.left));
      }
    }, { passive: false });
    stage.addEventListener('pointerdown', function (e) {
      if (e.target.closest && e.target.closest('.ev')) return;
      drag = { x: e.clientX, a: self.view.a, b: self.view.b, moved: false };
      stage.setPointerCapture(e.pointerId);
    });
    stage.addEventListener('pointermove', function (e) {
      var r = stage.getBoundingClientRect();
      if (drag) {
        var dx = e.clientX - drag.x;
        if (Math.abs(dx) > 3) drag.moved = true;
        var dt = dx / self.width * (drag.b - drag.a);
        self.setView(drag.a - dt, drag.b - dt);
        return;
      }
      if (e.target === self.svg || e.target === self.canvas) self.hoverAt(e.clientX - r.left, e.clientY - r.top, false);
    });
    stage.addEventListener('pointerup', function (e) {
      var r = stage.getBoundingClientRect();
      if (drag && !drag.moved && (e.target === self.svg || e.target === self.canvas)) self.hoverAt(e.clientX - r.left, e.clientY - r.top, true);
      drag = null;
    });
    stage.addEventListener('keydown', function (e) {
      var k = e.key, handled = true;
      if (k === 'ArrowLeft') self.pan(-0.1);
      else if (k === 'ArrowRight') self.pan(0.1);
      else if (k === '+' || k === '=' || k === 'ArrowUp') self.zoom(0.5);
      else if (k === '-' || k === '_' || k === 'ArrowDown') self.zoom(2);
      else if (k === '0' || k === 'Home') self.reset();
      else if (k === 'n') self.step(1);
      else if (k === 'p') self.step(-1);
      else if (k === 'Enter' || k === ' ') { if (self.selected >= 0) self.show(self.model.events[self.selected], true); }
      else handled = false;
      if (handled) e.preventDefault();
    });
  };
  Timeline.prototype.hoverAt = function (x, y, click) {
    var m = this.model, lane = Math.floor(y / LANE_H);
    if (lane < 0 || lane >= m.lanes.length) return;
    var t = this.t(x), tol = 4 * (this.view.b - this.view.a) / this.width;
    // ticks first (they are thin), then segments
    var best = null, bd = Infinity;
    for (var i = 0; i < m.ticks.length; i++) {
      var tk = m.ticks[i];
      if (tk.lane !== lane) continue;
      var d = Math.abs(tk.t - t);
      if (d <= tol && d < bd) { bd = d; best = tk; }
    }
    if (this.arrowsOnCanvas) {
      for (var z = 0; z < m.arrows.length; z++) {
        var ar = m.arrows[z];
        if (lane < Math.min(ar.from, ar.to) || lane > Math.max(ar.from, ar.to)) continue;
        var d4 = Math.abs(ar.t - t);
        if (d4 <= tol && d4 < bd) { bd = d4; best = ar; }
      }
    }
    if (this.marksOnCanvas) {
      for (var q = 0; q < m.marks.length; q++) {
        var mk = m.marks[q];
        if (mk.lane !== lane || y - lane * LANE_H > 16) continue;
        var d3 = Math.abs(mk.t - t);
        if (d3 <= tol && d3 < bd) { bd = d3; best = mk; }
      }
    }
    if (best) {
      if (click) this.select(best.ev, true); else this.show(m.events[best.ev], false);
      return;
    }
    var segs = m.lanes[lane].segs;
    var j = lowerBound(segs, t - 600000, function (s) { return s[0]; });
    for (; j < segs.length && segs[j][0] <= t + tol; j++) {
      if (segs[j][1] >= t - tol && segs[j][0] <= t + tol) {
        var d2 = m.describeSeg(lane, segs[j]);
        if (d2) { this.render(d2, click); }
        return;
      }
    }
  };
  Timeline.prototype.step = function (dir) {
    var evs = this.model.events;
    if (!evs.length) return;
    var i = this.selected;
    if (i < 0) {
      var c = (this.view.a + this.view.b) / 2;
      i = lowerBound(evs, c, function (e) { return e.t; });
      if (dir < 0) i -= 1;
    } else i += dir;
    i = Math.max(0, Math.min(evs.length - 1, i));
    this.select(i, false, true);
  };
  Timeline.prototype.select = function (i, playIt, center) {
    var ev = this.model.events[i];
    if (!ev) return;
    this.selected = i;
    if (center) {
      var span = Math.min(this.view.b - this.view.a, 30000);
      this.setView(ev.t - span / 2, ev.t + span / 2);
    } else this.schedule();
    this.show(ev, playIt);
    var prev = document.querySelectorAll('.ev-link.current');
    for (var k = 0; k < prev.length; k++) prev[k].classList.remove('current');
    var link = this.root.parentNode.querySelector('.ev-link[data-ev="' + ev.key + '"]');
    if (link) link.classList.add('current');
  };
  Timeline.prototype.show = function (ev, playIt) {
    this.render(this.model.describe(ev), playIt);
  };
  Timeline.prototype.render = function (d, playIt) {
    var box = this.details;
    if (!box) return;
    while (box.firstChild) box.removeChild(box.firstChild);
    box.appendChild(el('h4', 'd-title', d.title));
    var dl = el('dl', 'd-list');
    d.lines.forEach(function (kv) {
      dl.appendChild(el('dt', '', kv[0]));
      dl.appendChild(el('dd', '', kv[1]));
    });
    box.appendChild(dl);
    if (d.words && d.words.length) {
      box.appendChild(el('h5', '', 'Words around it'));
      var q = el('div', 'd-words');
      d.words.forEach(function (w) {
        var p = el('p', 'd-utt');
        p.appendChild(el('b', '', w[0] + ': '));
        p.appendChild(document.createTextNode(w[1]));
        q.appendChild(p);
      });
      box.appendChild(q);
    }
    if (audio) {
      var b = el('button', 'play', '▶ Play this moment');
      b.type = 'button';
      b.addEventListener('click', function () { play(d.a - 2000, d.b + 1500); });
      box.appendChild(b);
      if (playIt) play(d.a - 2000, d.b + 1500);
    }
    box.hidden = false;
  };
  Timeline.prototype.draw = function () {
    var m = this.model, ctx = this.canvas.getContext('2d'), w = this.width, v = this.view;
    var self = this, i, j, s;
    ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    ctx.clearRect(0, 0, w, this.height);
    var nL = m.lanes.length, lanesH = nL * LANE_H;
    // lane backgrounds
    for (i = 0; i < nL; i++) {
      ctx.fillStyle = i % 2 ? '#f4f4f4' : '#fafafa';
      ctx.fillRect(0, i * LANE_H, w, LANE_H);
    }
    // overlaps: a grey column across the lanes, darker on the overlapping lanes
    if (m.shade) {
      j = lowerBound(m.shade, v.a, function (x) { return x[1]; });
      for (; j < m.shade.length && m.shade[j][0] < v.b; j++) {
        s = m.shade[j];
        var x0 = this.x(s[0]), x1 = Math.max(x0 + 1, this.x(s[1]));
        ctx.fillStyle = 'rgba(0,0,0,0.07)';
        ctx.fillRect(x0, 0, x1 - x0, lanesH);
        ctx.fillStyle = 'rgba(0,0,0,0.22)';
        for (i = 0; i < s[2].length; i++) ctx.fillRect(x0, s[2][i] * LANE_H + 2, x1 - x0, LANE_H - 4);
      }
    }
    // segments
    for (i = 0; i < nL; i++) {
      var lane = m.lanes[i], segs = lane.segs, y = i * LANE_H;
      j = lowerBound(segs, v.a - 600000, function (x) { return x[0]; });
      var lastX = -1;
      for (; j < segs.length && segs[j][0] < v.b; j++) {
        s = segs[j];
        if (s[1] < v.a) continue;
        var a = this.x(s[0]), b = Math.max(a + 1, this.x(s[1]));
        if (b <= lastX) continue; // sub-pixel crowd: already painted
        var kind = s[2];
        if (kind === 'bc') continue;
        ctx.fillStyle = lane.fill ? lane.fill(s) : lane.colour;
        var inset = kind === 'correct' ? 11 : 6;
        ctx.fillRect(a, y + inset, b - a, LANE_H - 2 * inset);
        lastX = b;
      }
    }
    // words, when a minute or less is in view
    if (v.b - v.a <= 60000) {
      ctx.font = '11px system-ui, sans-serif';
      ctx.textBaseline = 'middle';
      for (i = 0; i < nL; i++) {
        var us = m.lanes[i].utts;
        if (!us) continue;
        ctx.fillStyle = m.lanes[i].ink;
        var ly = i * LANE_H + LANE_H / 2;
        for (j = lowerBound(us, v.a - 600000, function (u) { return u.a; }); j < us.length && us[j].a < v.b; j++) {
          var u = us[j];
          if (u.b < v.a) continue;
          var ua = this.x(u.a), ub = this.x(u.b);
          ctx.save();
          ctx.beginPath(); ctx.rect(ua, i * LANE_H, ub - ua, LANE_H); ctx.clip();
          var timed = u.w && u.w.length && u.w.every(function (w) { return w[1] !== null; });
          if (timed) {
            for (var q = 0; q < u.w.length; q++) ctx.fillText(u.w[q][0], this.x(u.w[q][1]) + 1, ly);
          } else ctx.fillText(u.text || '', ua + 2, ly);
          ctx.restore();
        }
      }
      ctx.textBaseline = 'alphabetic';
    }
    // backchannel ticks
    ctx.lineWidth = 2;
    for (i = 0; i < m.ticks.length; i++) {
      var tk = m.ticks[i];
      if (tk.t < v.a || tk.t > v.b) continue;
      var tx = Math.round(this.x(tk.t)) + 0.5, ty = tk.lane * LANE_H;
      ctx.strokeStyle = m.lanes[tk.lane].colour;
      ctx.beginPath(); ctx.moveTo(tx, ty + 3); ctx.lineTo(tx, ty + LANE_H - 3); ctx.stroke();
      ctx.strokeStyle = '#000';
      ctx.lineWidth = 1;
      ctx.beginPath(); ctx.moveTo(tx - 3, ty + 3); ctx.lineTo(tx + 3, ty + 3); ctx.stroke();
      ctx.lineWidth = 2;
    }
    // floor band
    var bandY = lanesH + 2;
    if (m.band) {
      j = lowerBound(m.band, v.a, function (x) { return x[1]; });
      for (; j < m.band.length && m.band[j][0] < v.b; j++) {
        s = m.band[j];
        var ba = this.x(s[0]), bb = Math.max(ba + 1, this.x(s[1]));
        ctx.fillStyle = m.lanes[s[2]].colour;
        ctx.fillRect(ba, bandY, bb - ba, BAND_H);
        // floor holder also underlined in its lane
        ctx.fillRect(ba, s[2] * LANE_H + LANE_H - 3, bb - ba, 2);
      }
    }
    // axis
    var axisY = this.height - AXIS_H;
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, axisY, w, AXIS_H);
    ctx.strokeStyle = '#888'; ctx.fillStyle = '#222'; ctx.lineWidth = 1;
    ctx.font = '11px system-ui, sans-serif';
    var span = v.b - v.a, stepMs = 1;
    var steps = [10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 15000, 30000, 60000, 120000, 300000, 600000, 900000, 1800000, 3600000];
    for (i = 0; i < steps.length; i++) { stepMs = steps[i]; if (span / stepMs <= w / 90) break; }
    for (var t = Math.ceil(v.a / stepMs) * stepMs; t <= v.b; t += stepMs) {
      var ax = Math.round(this.x(t)) + 0.5;
      ctx.beginPath(); ctx.moveTo(ax, axisY); ctx.lineTo(ax, axisY + 5); ctx.stroke();
      ctx.fillText(clock(t), ax + 2, axisY + 16);
    }
    this.range.textContent = clock(v.a) + ' – ' + clock(v.b);
    // interactive SVG layer: arrows and marks in view (culled)
    var layer = this.layer;
    while (layer.firstChild) layer.removeChild(layer.firstChild);
    var frag = document.createDocumentFragment();
    var cur = this.selected >= 0 ? m.events[this.selected] : null;
    var MAX_MARK_NODES = 200, MAX_ARROW_NODES = 250;
    var inView = m.arrows.filter(function (ar) { return ar.t >= v.a && ar.t <= v.b; });
    this.arrowsOnCanvas = inView.length > MAX_ARROW_NODES;
    if (this.arrowsOnCanvas) {
      // Too many to be separate nodes: paint them; pointer hits are found by hoverAt.
      ctx.strokeStyle = '#222';
      inView.forEach(function (ar) {
        var x = self.x(ar.t), y1 = ar.from * LANE_H + LANE_H / 2, y2 = ar.to * LANE_H + LANE_H / 2;
        ctx.lineWidth = ar.solid ? 1.5 : 1;
        ctx.setLineDash(ar.solid ? [] : [4, 3]);
        ctx.beginPath(); ctx.moveTo(x, y1); ctx.lineTo(x, y2); ctx.stroke();
      });
      ctx.setLineDash([]);
      inView = [];
    }
    inView.forEach(function (ar) {
      var x = self.x(ar.t), y1 = ar.from * LANE_H + LANE_H / 2, y2 = ar.to * LANE_H + LANE_H / 2;
      var dir = y2 > y1 ? 1 : -1;
      y2 -= dir * 6;
      var g = sv('g', { 'class': 'ev', tabindex: '0', role: 'button', 'data-i': ar.ev, 'data-ev': m.events[ar.ev].key, 'aria-label': m.events[ar.ev].label });
      g.appendChild(sv('path', { 'class': 'hit', d: 'M' + x + ',' + y1 + ' C' + (x + 14) + ',' + y1 + ' ' + (x + 14) + ',' + y2 + ' ' + x + ',' + y2, fill: 'none', stroke: 'transparent', 'stroke-width': '10' }));
      var p = sv('path', {
        'class': 'arrow ' + (ar.solid ? 'successful' : 'unsuccessful') + (cur && cur === m.events[ar.ev] ? ' selected' : ''),
        d: 'M' + x + ',' + y1 + ' C' + (x + 14) + ',' + y1 + ' ' + (x + 14) + ',' + y2 + ' ' + x + ',' + y2,
        fill: 'none', stroke: '#222', 'stroke-width': ar.solid ? '2' : '1.6', 'marker-end': 'url(#ah-' + m.id + ')'
      });
      if (!ar.solid) p.setAttribute('stroke-dasharray', '4 3');
      g.appendChild(p);
      g.appendChild(sv('circle', { cx: x, cy: y1, r: 3, fill: '#222' }));
      frag.appendChild(g);
    });
    var visible = [];
    for (i = 0; i < m.marks.length; i++) if (m.marks[i].t >= v.a && m.marks[i].t <= v.b) visible.push(m.marks[i]);
    this.marksOnCanvas = visible.length > MAX_MARK_NODES;
    if (this.marksOnCanvas) {
      // Too many to be separate nodes: paint them; pointer hits are found by hoverAt.
      visible.forEach(function (mk) {
        var x = self.x(mk.t), y = mk.lane * LANE_H;
        ctx.beginPath();
        if (mk.cls === 'claim') { ctx.moveTo(x, y + 2); ctx.lineTo(x + 5, y + 8); ctx.lineTo(x, y + 14); ctx.lineTo(x - 5, y + 8); ctx.fillStyle = '#F0E442'; }
        else { ctx.moveTo(x - 4, y + 1); ctx.lineTo(x + 4, y + 1); ctx.lineTo(x, y + 7); ctx.fillStyle = mk.fill || '#555'; }
        ctx.closePath(); ctx.fill();
      });
      visible = [];
    }
    visible.forEach(function (mk) {
      var x = self.x(mk.t), y = mk.lane * LANE_H;
      var g = sv('g', { 'class': 'ev mark ' + mk.cls, tabindex: '0', role: 'button', 'data-i': mk.ev, 'data-ev': m.events[mk.ev].key, 'aria-label': m.events[mk.ev].label });
      var shape = mk.cls === 'claim'
        ? sv('path', { d: 'M' + x + ',' + (y + 2) + ' l5,6 l-5,6 l-5,-6 z', fill: '#F0E442', stroke: '#000' })
        : sv('path', { d: 'M' + (x - 4) + ',' + (y + 1) + ' l8,0 l-4,6 z', fill: mk.fill || '#555', stroke: '#fff', 'stroke-width': '0.5' });
      if (cur && cur === m.events[mk.ev]) shape.setAttribute('class', 'selected');
      g.appendChild(shape);
      frag.appendChild(g);
    });
    layer.appendChild(frag);
  };

  // ---------------------------------------------------------------- conversation model
  var RULES = {
    opening: 'No one held the floor yet: the first onset opens the conversation.',
    smooth_switch: 'Rule 3: onset in the holder\u2019s silence after a complete utterance; the floor was taken.',
    silent_interruption: 'Rule 3: onset in the holder\u2019s silence after an incomplete utterance, within silent_int_max_gap; the floor was taken.',
    pause_competition: 'Rule 3: onset in the holder\u2019s silence; the floor was not taken.',
    simultaneous_start: 'Rule 1: another speaker started within simul_start_tol and no third speaker was talking.',
    terminal_overlap: 'Rule 2: onset while the holder talks, within terminal_window of a completion point.',
    interruption: 'Rule 2: onset while the holder talks, farther than terminal_window from any completion point.'
  };
  var CLASS_NAMES = {
    opening: 'opening', smooth_switch: 'smooth switch', silent_interruption: 'silent interruption',
    pause_competition: 'pause competition', simultaneous_start: 'simultaneous start',
    terminal_overlap: 'terminal overlap', interruption: 'interruption'
  };
  var MARK_FILL = { terminal_overlap: '#009E73', simultaneous_start: '#E69F00', pause_competition: '#999999', smooth_switch: '#56B4E9', opening: '#000000' };

  function wordsAround(utts, t, a, b) {
    if (!utts) return [];
    var lo = a - 3000, hi = b + 3000, out = [];
    var start = lowerBound(utts, lo - 600000, function (u) { return u.a; });
    for (var i = start; i < utts.length && utts[i].a <= hi; i++) {
      var u = utts[i];
      if (u.b < lo) continue;
      var text;
      if (u.w && u.w.length) {
        text = u.w.filter(function (w) { return w[1] === null || (w[2] >= lo && w[1] <= hi); }).map(function (w) { return w[0]; }).join(' ');
      } else text = u.text || '';
      if (text.length > 240) text = text.slice(0, 240) + '…';
      if (text) out.push([u.s + ' (' + clock(u.a) + ')', text]);
      if (out.length >= 8) break;
    }
    return out;
  }

  function conversationModel(conv, k) {
    var r = conv.result, p = r.params;
    var names = Object.keys(r.speakers);
    var index = {};
    names.forEach(function (n, i) { index[n] = i; });
    var lanes = names.map(function (n, i) { return { label: n, colour: PALETTE[i % PALETTE.length], segs: [] }; });
    var events = [], ticks = [], arrows = [], marks = [];
    r.talkspurts.forEach(function (s, i) {
      var li = index[s.speaker];
      if (li === undefined) return;
      lanes[li].segs.push([s.start, s.end, s.is_backchannel ? 'bc' : 'speech', i]);
    });
    lanes.forEach(function (l) { l.segs.sort(function (x, y) { return x[0] - y[0]; }); });
    // Words in the lanes, shown when zoomed in far enough to read them.
    (conv.utterances || []).forEach(function (u) {
      var li = index[u.s];
      if (li === undefined) return;
      (lanes[li].utts = lanes[li].utts || []).push(u);
    });
    lanes.forEach(function (l, i) { l.ink = [0, 3, 5, 7].indexOf(i % PALETTE.length) >= 0 ? '#fff' : '#000'; });
    var shade = [];
    r.joint.forEach(function (j) {
      if (j.active.length >= 2) shade.push([j.start, j.end, j.active.map(function (n) { return index[n]; }).filter(function (x) { return x !== undefined; })]);
    });
    var turns = r.turns.slice().sort(function (x, y) { return x.claim - y.claim; });
    var spanEnd = r.talkspurts.reduce(function (m, s) { return Math.max(m, s.end); }, 0);
    var band = turns.map(function (tu, i) {
      var end = i + 1 < turns.length ? turns[i + 1].claim : spanEnd;
      return [tu.claim, end, index[tu.speaker]];
    }).filter(function (b) { return b[2] !== undefined && b[1] > b[0]; });
    r.onsets.forEach(function (o, i) {
      events.push({ t: o.time, key: 'o' + i, type: 'onset', o: o, label: CLASS_NAMES[o.class] + ' by ' + o.speaker + (o.holder ? ' on ' + o.holder : '') + ' at ' + clock(o.time) });
    });
    r.verbal_claims.forEach(function (v, i) {
      events.push({ t: v.start, key: 'v' + i, type: 'claim', v: v, label: 'floor claim in words by ' + v.speaker + ' at ' + clock(v.start) });
    });
    r.talkspurts.forEach(function (s, i) {
      if (s.is_backchannel) events.push({ t: s.start, key: 'b' + i, type: 'bc', s: s, label: 'backchannel by ' + s.speaker + ' at ' + clock(s.start) });
    });
    events.sort(function (x, y) { return x.t - y.t || (x.key < y.key ? -1 : 1); });
    events.forEach(function (e, i) {
      if (e.type === 'onset') {
        var o = e.o, li = index[o.speaker];
        if (li === undefined) return;
        var attempt = o.class === 'interruption' || o.class === 'silent_interruption';
        if (attempt && o.holder !== null && index[o.holder] !== undefined) {
          arrows.push({ t: o.time, from: li, to: index[o.holder], solid: o.outcome === 'floor_taken', ev: i });
        } else {
          marks.push({ t: o.time, lane: li, ev: i, cls: o.class, fill: MARK_FILL[o.class], always: o.class !== 'smooth_switch' });
        }
      } else if (e.type === 'claim') {
        if (index[e.v.speaker] !== undefined) marks.push({ t: e.v.start, lane: index[e.v.speaker], ev: i, cls: 'claim', always: true });
      } else if (e.type === 'bc') {
        if (index[e.s.speaker] !== undefined) ticks.push({ t: e.s.start, lane: index[e.s.speaker], ev: i });
      }
    });
    var utts = conv.utterances || null;
    function describe(e) {
      var lines = [], title, a = e.t, b = e.t;
      if (e.type === 'onset') {
        var o = e.o, attempt = o.class === 'interruption' || o.class === 'silent_interruption';
        title = CLASS_NAMES[o.class] + (attempt ? (o.outcome === 'floor_taken' ? ' (successful)' : ' (unsuccessful)') : '');
        lines.push(['class', o.class]);
        lines.push(['speaker', o.speaker]);
        lines.push(['floor holder', o.holder === null ? '–' : o.holder]);
        lines.push(['onset', clock(o.time) + ' (' + secs(o.time) + ')']);
        lines.push(['outcome', o.outcome]);
        if (o.ferguson) lines.push(['Ferguson/Beattie', o.ferguson]);
        if (o.partner) lines.push(['partner', o.partner]);
        if (o.dist_to_completion !== null) lines.push(['distance to completion', o.dist_to_completion + ' ms']);
        if (o.holder_remaining !== null) lines.push(['holder talks on for', o.holder_remaining + ' ms']);
        var rule = RULES[o.class] || '';
        if (o.class === 'interruption' || o.class === 'terminal_overlap') rule += ' (terminal_window = ' + p.terminal_window + ' ms; d = ' + (o.dist_to_completion === null ? 'none' : o.dist_to_completion + ' ms') + ')';
        if (o.class === 'simultaneous_start') rule += ' (simul_start_tol = ' + p.simul_start_tol + ' ms)';
        if (o.class === 'silent_interruption') rule += ' (silent_int_max_gap = ' + p.silent_int_max_gap + ' ms)';
        if (p.classifier === 'calibrated' && o.p_interruption !== null && o.p_interruption !== undefined) {
          // The class came from the classifier, not from the structural rule's distance test.
          rule = 'Decided by the calibrated classifier (conversation-metrics.md \u00a75.8, fitted on human labels): p(interruption) = ' +
            o.p_interruption.toFixed(2) + ', p(failed attempt) = ' + (o.p_failed_attempt === null ? '-' : o.p_failed_attempt.toFixed(2)) +
            '. --classifier rules applies the structural rules instead.';
        }
        lines.push(['rule', rule]);
        if (o.holder_remaining !== null && o.holder_remaining > 0) b = o.time + o.holder_remaining;
      } else if (e.type === 'claim') {
        var v = e.v;
        title = 'floor claim in words';
        lines.push(['speaker', v.speaker]);
        lines.push(['phrase', v.phrase]);
        lines.push(['time', clock(v.start) + ' – ' + clock(v.end)]);
        if (v.answers_speaker) lines.push(['answers', (v.answers_class || '') + ' by ' + v.answers_speaker + ' at ' + clock(v.answers_time)]);
        lines.push(['rule', 'A phrase of the floor-claim lexicon, said within verbal_claim_window (' + p.verbal_claim_window + ' ms) of another speaker\u2019s talk that overlapped the claimant.']);
        a = v.start; b = v.end;
      } else {
        var s = e.s;
        title = 'backchannel';
        lines.push(['speaker', s.speaker]);
        lines.push(['time', clock(s.start) + ' – ' + clock(s.end) + ' (' + (s.end - s.start) + ' ms)']);
        lines.push(['words', String(s.n_tokens)]);
        lines.push(['rule', (r.mode[s.speaker] === 'text'
          ? 'S5 text mode: at most bc_max_words (' + p.bc_max_words + ') words, cue-word share above ' + p.bc_min_cue_share + ', at most ' + p.bc_max_duration + ' ms, inside another speaker\u2019s talk'
          : 'S5 timing mode: at most ' + p.bc_max_duration + ' ms, silence of ' + p.bc_pre_silence + '/' + p.bc_post_silence + ' ms around it, another speaker talking within ' + p.bc_context + ' ms and resuming within ' + p.bc_resume_window + ' ms') + '; not floor-relevant.']);
        a = s.start; b = s.end;
      }
      return { title: title, lines: lines, words: wordsAround(utts, e.t, a, b), a: a, b: b };
    }
    function describeSeg(li, seg) {
      var s = r.talkspurts[seg[3]];
      if (!s) return null;
      return {
        title: s.is_backchannel ? 'backchannel' : 'talkspurt',
        lines: [['speaker', s.speaker], ['time', clock(s.start) + ' – ' + clock(s.end) + ' (' + (s.end - s.start) + ' ms)'], ['words', String(s.n_tokens)],
          ['rule', 'S2: the speaker\u2019s segments joined across pauses shorter than bridge_pause (' + p.bridge_pause + ' ms).']],
        words: wordsAround(utts, s.start, s.start, s.end), a: s.start, b: s.end
      };
    }
    var t0 = r.conversation.start === null ? 0 : r.conversation.start;
    return {
      id: 'c' + k, name: 'Conversation ' + conv.result.recording, lanes: lanes, band: band, bandLabel: 'floor holder', shade: shade, ticks: ticks,
      arrows: arrows, marks: marks, events: events, t0: t0, t1: Math.max(t0 + 1000, spanEnd),
      describe: describe, describeSeg: describeSeg
    };
  }

  // ---------------------------------------------------------------- scoring model
  function scoreModel(file, k) {
    var lanes = [], events = [];
    var refIdx = {};
    file.reference.forEach(function (sp, i) {
      refIdx[sp.speaker] = i;
      lanes.push({ label: 'ref ' + sp.speaker, colour: PALETTE[i % PALETTE.length], segs: sp.segments.map(function (s) { return [s[0], s[1], 'ref', null]; }) });
    });
    // Hypothesis lanes under the reference order of the speaker each maps to; unmapped last.
    var hyps = file.hypothesis.slice().sort(function (x, y) {
      var a = x.mapped !== null && refIdx[x.mapped] !== undefined ? refIdx[x.mapped] : 1e9;
      var b = y.mapped !== null && refIdx[y.mapped] !== undefined ? refIdx[y.mapped] : 1e9;
      return a - b || (x.speaker < y.speaker ? -1 : x.speaker > y.speaker ? 1 : 0);
    });
    hyps.forEach(function (sp, i) {
      var ci = sp.mapped !== null && refIdx[sp.mapped] !== undefined ? refIdx[sp.mapped] : file.reference.length + i;
      lanes.push({ label: 'hyp ' + sp.speaker + (sp.mapped !== null ? ' → ' + sp.mapped : ' (unmapped)'), colour: PALETTE[ci % PALETTE.length], segs: sp.segments.map(function (s) { return [s[0], s[1], 'hyp', null]; }) });
    });
    var errLane = { label: 'errors', colour: '#D55E00', segs: file.errors.map(function (e, i) { return [e.start, e.end, e.kind, i]; }), fill: function (s) { return ERR[s[2]] || '#999'; } };
    lanes.push(errLane);
    var t0 = Infinity, t1 = -Infinity;
    lanes.forEach(function (l) {
      l.segs.sort(function (x, y) { return x[0] - y[0]; });
      l.segs.forEach(function (s) { t0 = Math.min(t0, s[0]); t1 = Math.max(t1, s[1]); });
    });
    if (!isFinite(t0)) { t0 = 0; t1 = 1000; }
    var eLane = lanes.length - 1;
    function describeSeg(li, seg) {
      if (li === eLane) {
        var e = file.errors[seg[3]];
        return { title: e.kind, lines: [['time', clock(e.start) + ' – ' + clock(e.end) + ' (' + ((e.end - e.start) / 1000).toFixed(3) + ' s)'], ['reference', e.reference === null ? '–' : e.reference], ['hypothesis', e.hypothesis === null ? '–' : e.hypothesis],
          ['rule', e.kind === 'miss' ? 'Reference speech with no hypothesis speaker left to answer it.' : e.kind === 'false-alarm' ? 'Hypothesis speech beyond the number of reference speakers.' : e.kind === 'confusion' ? 'The reference speaker was given to a hypothesis speaker other than its mapped one.' : 'The reference speaker was given to its mapped hypothesis speaker.']], words: [], a: e.start, b: e.end };
      }
      return { title: lanes[li].label, lines: [['time', clock(seg[0]) + ' – ' + clock(seg[1])]], words: [], a: seg[0], b: seg[1] };
    }
    // The errors are the events n/p step through.
    file.errors.forEach(function (e, i) {
      if (e.kind !== 'correct') events.push({ t: e.start, key: 'e' + i, seg: [e.start, e.end, e.kind, i], label: e.kind + ' at ' + clock(e.start) });
    });
    return { id: 's' + k, name: 'Scoring ' + file.recording, lanes: lanes, band: null, shade: null, ticks: [], arrows: [], marks: [], events: events, t0: t0, t1: t1,
      describe: function (ev) { return describeSeg(eLane, ev.seg); }, describeSeg: describeSeg };
  }

  // ---------------------------------------------------------------- boot
  var timelines = [];
  var roots = document.querySelectorAll('.timeline');
  for (var i = 0; i < roots.length; i++) {
    var root = roots[i], k = Number(root.getAttribute('data-index'));
    var model = data.kind === 'score' ? scoreModel(data.files[k], k) : conversationModel(data.conversations[k], k);
    timelines[k] = new Timeline(root, model);
  }
  // transcript and table links: select the event on its timeline
  document.addEventListener('click', function (e) {
    var t = e.target.closest ? e.target.closest('.ev-link, .seek') : null;
    if (!t) return;
    var k = Number(t.getAttribute('data-conv'));
    var tl = timelines[k];
    if (!tl) return;
    if (t.classList.contains('seek')) {
      var ms = Number(t.getAttribute('data-t'));
      var span = Math.min(tl.view.b - tl.view.a, 30000);
      tl.setView(ms - span / 2, ms + span / 2);
      play(ms, ms + 5000);
    } else {
      var key = t.getAttribute('data-ev');
      var idx = -1;
      for (var j = 0; j < tl.model.events.length; j++) if (tl.model.events[j].key === key) { idx = j; break; }
      if (idx >= 0) tl.select(idx, true, true);
    }
    tl.stage.scrollIntoView({ block: 'nearest' });
  });
  document.documentElement.setAttribute('data-ready', String(performance.now()));
})();
