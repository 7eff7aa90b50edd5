"""The browser check the scoring tests share: no text wider than its control, no closing mark alone."""

# every text wider than its control, and every ✓ or … alone on its line
WIDE = """() => {
  const out = [];
  const shown = e => e.offsetParent !== null && getComputedStyle(e).visibility !== 'hidden';
  for (const el of document.querySelectorAll('.btn, button, label.toggle > span, summary, .thumb-label')) {
    if (!shown(el) || !el.textContent.trim()) continue;
    const box = el.getBoundingClientRect();
    const range = document.createRange();
    range.selectNodeContents(el);
    const text = range.getBoundingClientRect();
    const what = el.textContent.trim().replace(/\\s+/g, ' ').slice(0, 40);
    if (text.right > box.right + 1 || text.left < box.left - 1 || el.scrollWidth > el.clientWidth + 1)
      out.push('wider than its control: ' + what + ' (' + Math.round(text.width) + ' in ' + Math.round(box.width) + ')');
    // a closing mark on a line of its own
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    let last = null, node;
    while ((node = walker.nextNode())) if (node.textContent.trim()) last = node;
    if (!last) continue;
    const s = last.textContent.replace(/\\s+$/, '');
    const mark = s.slice(-1);
    if ((mark === '\\u2713' || mark === '\\u2026') && s.length >= 1) {
      const r1 = document.createRange(); r1.setStart(last, s.length - 1); r1.setEnd(last, s.length);
      const line = r1.getBoundingClientRect();
      const all = [...range.getClientRects()].filter(r => r.width > 0);
      const before = all.filter(r => r.bottom <= line.top + 1);
      const same = all.filter(r => Math.abs(r.top - line.top) < 2 && r.left < line.left - 1);
      if (before.length && !same.length) out.push('"' + mark + '" alone on its line: ' + what);
    }
  }
  return out;
}"""
