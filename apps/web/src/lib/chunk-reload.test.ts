import { describe, expect, it, vi } from "vitest";
import { CHUNK_RELOAD_FLAG, loadWithReload, type ReloadEnv } from "./chunk-reload";

function env(): ReloadEnv & { store: Map<string, string> } {
  const store = new Map<string, string>();
  return {
    store,
    storage: {
      getItem: (k) => store.get(k) ?? null,
      setItem: (k, v) => void store.set(k, v),
      removeItem: (k) => void store.delete(k),
    },
    reload: vi.fn(),
  };
}

describe("loadWithReload", () => {
  it("returns the module and clears the flag on success", async () => {
    const e = env();
    e.store.set(CHUNK_RELOAD_FLAG, "1");
    await expect(loadWithReload(async () => "mod", e)).resolves.toBe("mod");
    expect(e.store.has(CHUNK_RELOAD_FLAG)).toBe(false);
    expect(e.reload).not.toHaveBeenCalled();
  });

  it("reloads once when a chunk fails to load", async () => {
    const e = env();
    const pending = loadWithReload(() => Promise.reject(new Error("Failed to fetch dynamically imported module")), e);
    await vi.waitFor(() => expect(e.reload).toHaveBeenCalledTimes(1));
    expect(e.store.get(CHUNK_RELOAD_FLAG)).toBe("1");
    // The promise never settles: the page is going away.
    const settled = await Promise.race([
      pending.then(
        () => true,
        () => true,
      ),
      new Promise((r) => setTimeout(() => r(false), 20)),
    ]);
    expect(settled).toBe(false);
  });

  it("does not loop: after one reload the error surfaces", async () => {
    const e = env();
    e.store.set(CHUNK_RELOAD_FLAG, "1");
    await expect(loadWithReload(() => Promise.reject(new Error("still broken")), e)).rejects.toThrow("still broken");
    expect(e.reload).not.toHaveBeenCalled();
  });
});
