// Polls a page condition until it holds: a value other than undefined or false.
export async function eventually<T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  ms = 20_000,
  stepMs = 50,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, stepMs));
  }
}
