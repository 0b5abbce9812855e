/**
 * Runs tasks one at a time per key, in call order (VS Code's secret storage does the same with a
 * SequencerByKey): a `set` followed at once by a `get` or `delete` of the same key must not overtake
 * it inside the OS keychain, whose calls are asynchronous and unordered. Different keys run in parallel.
 */
export class KeyedSequencer {
  readonly #tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    // A failed task must not block the ones queued behind it, hence the catch-all before `then`.
    const result = previous.catch(() => {}).then(task);
    const tail = result.catch(() => {});
    this.#tails.set(key, tail);
    void tail.then(() => {
      // Forget idle keys so the map does not grow with every key ever touched.
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return result;
  }
}
