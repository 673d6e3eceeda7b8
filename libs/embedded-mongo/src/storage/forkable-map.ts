import { OrderedMap } from 'immutable';

/**
 * A mutable Map whose copy (`fork`) costs O(1): it holds an immutable ordered hash array mapped trie (Immutable.js), so a
 * transaction's snapshot of a collection shares the structure with the collection, and each side pays only for
 * what it changes afterwards. A native Map copied every touched collection and index at the start of every
 * transaction: O(documents) per transaction, 16 ms at 50,000 documents, and it grew with every invoice stored.
 * Ordered like a native Map (insertion order), which is the natural order a find without a sort answers in.
 */
export class ForkableMap<K, V> implements Iterable<[K, V]> {
  constructor(private map: OrderedMap<K, V> = OrderedMap()) {}

  get size(): number {
    return this.map.size;
  }

  get(key: K): V | undefined {
    return this.map.get(key);
  }

  has(key: K): boolean {
    return this.map.has(key);
  }

  set(key: K, value: V): this {
    this.map = this.map.set(key, value);
    return this;
  }

  delete(key: K): boolean {
    if (!this.map.has(key)) return false;
    this.map = this.map.delete(key);
    return true;
  }

  keys(): IterableIterator<K> {
    return this.map.keys();
  }

  values(): IterableIterator<V> {
    return this.map.values();
  }

  [Symbol.iterator](): IterableIterator<[K, V]> {
    return this.map.entries();
  }

  /** An independent copy: later changes to either side are not seen by the other. */
  fork(): ForkableMap<K, V> {
    return new ForkableMap(this.map);
  }
}
