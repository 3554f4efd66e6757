// overtalk event score: zoom and pan of the static drawings, a class filter, and the details of
// a mark. The drawings are complete without it: every position is a percentage of the
// recording's span, so zooming only widens the SVG. Text reaches the page through textContent.
(function () {
  'use strict';
  var ZOOM_MAX = 512;
  function clock(ms) {
    var s = Math.max(0, Math.floor(ms / 1000));
    var h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, r = s % 60;
    return (h ? h + ':' + (m < 10 ? '0' : '') : '') + m + ':' + (r < 10 ? '0' : '') + r;
  }
  function setup(root) {
    var scroll = root.querySelector('.ev-scroll');
    var svg = root.querySelector('svg.ev-svg');
    var details = root.parentNode.querySelector('.details');
    var range = root.querySelector('.range');
    var filter = root.querySelector('select.ev-filter');
    var only = root.querySelector('input.ev-unmatched');
    if (!scroll || !svg) return;
    var t0 = Number(svg.getAttribute('data-t0')), span = Number(svg.getAttribute('data-span'));
    var marks = svg.querySelectorAll('line.ev');
    var zoom = 1;
    function showRange() {
      if (!range) return;
      var w = Math.max(1, scroll.scrollWidth);
      var a = t0 + span * scroll.scrollLeft / w, b = t0 + span * (scroll.scrollLeft + scroll.clientWidth) / w;
      range.textContent = clock(a) + ' – ' + clock(b) + (zoom > 1 ? ' (×' + zoom + ')' : '');
    }
    // Zoom by `f` keeping the time at `px` (pixels from the scroll box's left edge) in place.
    function zoomBy(f, px) {
      var z = Math.max(1, Math.min(ZOOM_MAX, zoom * f));
      if (z === zoom) return;
      if (px === undefined) px = scroll.clientWidth / 2;
      var frac = (scroll.scrollLeft + px) / Math.max(1, scroll.scrollWidth);
      zoom = z;
      svg.setAttribute('width', (zoom * 100) + '%');
      svg.classList.toggle('fine', zoom >= 4);
      scroll.scrollLeft = frac * scroll.scrollWidth - px;
      showRange();
    }
    root.addEventListener('click', function (e) {
      var b = e.target.closest ? e.target.closest('button[data-zoom]') : null;
      if (!b) return;
      var k = b.getAttribute('data-zoom');
      if (k === 'in') zoomBy(2); else if (k === 'out') zoomBy(0.5); else zoomBy(1 / zoom);
    });
    scroll.addEventListener('wheel', function (e) {
      if (!e.ctrlKey && !e.metaKey) return;
      e.preventDefault();
      var r = scroll.getBoundingClientRect();
      zoomBy(Math.pow(0.998, e.deltaY), e.clientX - r.left);
    }, { passive: false });
    scroll.addEventListener('keydown', function (e) {
      var k = e.key, handled = true;
      if (k === '+' || k === '=') zoomBy(2);
      else if (k === '-' || k === '_') zoomBy(0.5);
      else if (k === '0' || k === 'Home') zoomBy(1 / zoom);
      else if (k === 'ArrowLeft') scroll.scrollLeft -= scroll.clientWidth / 10;
      else if (k === 'ArrowRight') scroll.scrollLeft += scroll.clientWidth / 10;
      else handled = false;
      if (handled) e.preventDefault();
    });
    scroll.addEventListener('scroll', showRange);
    function applyFilter() {
      var c = filter ? filter.value : '', u = only ? only.checked : false, shown = 0;
      for (var i = 0; i < marks.length; i++) {
        var m = marks[i];
        var hide = (c && m.getAttribute('data-class') !== c) || (u && !m.classList.contains('u'));
        if (hide) m.setAttribute('display', 'none'); else { m.removeAttribute('display'); shown++; }
      }
      root.setAttribute('data-shown', String(shown));
    }
    if (filter) filter.addEventListener('change', applyFilter);
    if (only) only.addEventListener('change', applyFilter);
    var lit = [];
    function show(m) {
      lit.forEach(function (x) { x.classList.remove('hl'); });
      lit = [];
      var pair = m.getAttribute('data-pair');
      if (pair) {
        var ps = svg.querySelectorAll('line.ev[data-pair="' + pair + '"]');
        for (var i = 0; i < ps.length; i++) { ps[i].classList.add('hl'); lit.push(ps[i]); }
      }
      if (!details) return;
      while (details.firstChild) details.removeChild(details.firstChild);
      var t = m.querySelector('title');
      var p = document.createElement('p');
      p.textContent = t ? t.textContent : '';
      details.appendChild(p);
    }
    svg.addEventListener('pointerover', function (e) { if (e.target.classList && e.target.classList.contains('ev')) show(e.target); });
    svg.addEventListener('focusin', function (e) { if (e.target.classList && e.target.classList.contains('ev')) show(e.target); });
    applyFilter();
    showRange();
  }
  var roots = document.querySelectorAll('.ev-draw');
  for (var i = 0; i < roots.length; i++) setup(roots[i]);
  document.documentElement.setAttribute('data-ready', String(performance.now()));
})();
