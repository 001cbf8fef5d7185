// Text a person cannot read whole and cannot hover for: an element that clips its content
// (across, as an ellipsis does, or down, as a line clamp does) with no title on it or
// around it. The canvas's own containers clip by design and are left out.
import type { Page } from 'playwright-core';

export function cutWithoutTitle(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const clips = (v: string) => v === 'hidden' || v === 'clip';
    for (const el of Array.from(document.body.querySelectorAll<HTMLElement>('*'))) {
      if (
        el.closest('svg') ||
        el.matches(
          '.react-flow, .react-flow__renderer, .react-flow__pane, .react-flow__viewport, .react-flow__container',
        )
      )
        continue;
      if (el.clientWidth === 0 || el.closest('[title]')) continue;
      const style = getComputedStyle(el);
      const across = clips(style.overflowX) && el.scrollWidth > el.clientWidth + 1;
      const down =
        clips(style.overflowY) && el.scrollHeight > el.clientHeight + 1 && (el.textContent ?? '').trim() !== '';
      if (!across && !down) continue;
      const size = across ? `${el.scrollWidth}>${el.clientWidth}` : `${el.scrollHeight}v${el.clientHeight}`;
      out.push(
        `${el.tagName.toLowerCase()}.${el.className.toString().slice(0, 40)} "${(el.textContent ?? '').slice(0, 50)}" ${size}`,
      );
    }
    return out;
  });
}
