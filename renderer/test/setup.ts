// jsdom lacks what React Flow measures with: ResizeObserver and DOMMatrixReadOnly. These
// stubs give every element a fixed size so the canvas renders its nodes under test.
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

class ResizeObserverStub {
  constructor(private readonly cb: ResizeObserverCallback) {}
  observe(target: Element): void {
    const size = [{ inlineSize: 1000, blockSize: 800 }];
    this.cb(
      [
        {
          target,
          contentRect: { width: 1000, height: 800 },
          borderBoxSize: size,
          contentBoxSize: size,
        } as unknown as ResizeObserverEntry,
      ],
      this as unknown as ResizeObserver,
    );
  }
  unobserve(): void {}
  disconnect(): void {}
}

class DOMMatrixReadOnlyStub {
  m22: number;
  constructor(transform?: string) {
    const scale = transform?.match(/scale\(([0-9.]+)\)/)?.[1];
    this.m22 = scale !== undefined ? Number(scale) : 1;
  }
}

// Libraries look these up on globalThis or on the element's window (document.defaultView).
for (const g of [globalThis, document.defaultView] as Array<Record<string, unknown> | null>) {
  if (!g) continue;
  g.ResizeObserver ??= ResizeObserverStub;
  g.DOMMatrixReadOnly ??= DOMMatrixReadOnlyStub;
}

// Every element reports a size, so React Flow considers nodes measured and the pane non-empty.
Object.defineProperties(HTMLElement.prototype, {
  offsetWidth: { configurable: true, get: () => 1000 },
  offsetHeight: { configurable: true, get: () => 800 },
  clientWidth: { configurable: true, get: () => 1000 },
  clientHeight: { configurable: true, get: () => 800 },
});
Element.prototype.getBoundingClientRect = function () {
  return {
    x: 0,
    y: 0,
    top: 0,
    left: 0,
    right: 1000,
    bottom: 800,
    width: 1000,
    height: 800,
    toJSON: () => ({}),
  } as DOMRect;
};
(SVGElement.prototype as unknown as { getBBox: () => DOMRect }).getBBox = () =>
  ({ x: 0, y: 0, width: 100, height: 20 }) as DOMRect;

afterEach(() => cleanup());
