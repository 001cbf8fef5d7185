// A map that reads through to a parent and writes only to itself: how a threading fork
// (thread.ts) sees everything its parent knows without copying or changing it.

export class LayeredMap<K, V> {
  private readonly own = new Map<K, V>();

  constructor(private readonly parent: LayeredMap<K, V> | null = null) {}

  get(key: K): V | undefined {
    const value = this.own.get(key);
    return value !== undefined ? value : this.parent?.get(key);
  }

  set(key: K, value: V): void {
    this.own.set(key, value);
  }
}
