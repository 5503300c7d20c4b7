/** sessionStorage flag set just before the one reload a failed chunk load may cause. */
export const CHUNK_RELOAD_FLAG = "burrow:chunk-reload";

/** What {@link loadWithReload} touches; injectable for tests. */
export interface ReloadEnv {
  storage: Pick<Storage, "getItem" | "setItem" | "removeItem">;
  reload: () => void;
}

const browserEnv = (): ReloadEnv => ({
  storage: window.sessionStorage,
  reload: () => window.location.reload(),
});

/**
 * Loads a code chunk. When it fails (typically a deploy replaced the hashed files), reloads the page
 * once to pick up the new index.html; the flag stops a reload loop when the failure persists, and is
 * cleared by the next successful load.
 * @param load the dynamic import
 * @param env storage and reload (defaults to the browser's)
 * @returns the module; never settles when a reload was started
 * @throws the load error when a reload was already tried
 */
export async function loadWithReload<T>(load: () => Promise<T>, env: ReloadEnv = browserEnv()): Promise<T> {
  try {
    const mod = await load();
    env.storage.removeItem(CHUNK_RELOAD_FLAG);
    return mod;
  } catch (err) {
    if (env.storage.getItem(CHUNK_RELOAD_FLAG)) throw err;
    env.storage.setItem(CHUNK_RELOAD_FLAG, "1");
    env.reload();
    return new Promise<T>(() => {});
  }
}
