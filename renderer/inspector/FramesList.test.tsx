import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { FrameView } from '../../shared/api/types.js';
import { FramesList, framesText } from './FramesList.js';

const frames: FrameView[] = Array.from({ length: 5_000 }, (_, i) => ({
  from: i % 2 === 0 ? 'client' : 'server',
  tUs: i * 1_000,
  opcode: 1,
  text: JSON.stringify({
    type: i % 2 === 0 ? 'response.create' : 'response.output_text.delta',
    n: i,
    delta: 'x'.repeat(200),
  }),
}));

describe('FramesList', () => {
  it('renders the rows in view, not all 5,000 frames', () => {
    render(<FramesList frames={frames} />);
    const rows = screen.getByTestId('ws-frames').querySelectorAll('button[data-index]');
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.length).toBeLessThan(200);
    expect(rows[0]!.textContent).toContain('"n":0');
  });

  it('opens a frame whole on a click, and closes it on another', () => {
    render(<FramesList frames={frames} />);
    const first = screen.getByTestId('ws-frames').querySelector('button[data-index="0"]')!;
    expect(first.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(first);
    expect(first.getAttribute('aria-expanded')).toBe('true');
    fireEvent.click(first);
    expect(first.getAttribute('aria-expanded')).toBe('false');
  });

  it('copies every frame, one line each, with its time and direction', () => {
    const text = framesText(frames);
    expect(text.split('\n')).toHaveLength(5_000);
    expect(text.split('\n')[1]).toMatch(/^\s*1(\.0)? ?ms ← \{"type":"response.output_text.delta","n":1/);
  });
});
