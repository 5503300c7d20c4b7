import type { ComponentType } from "react";
import type { RouteObject } from "react-router";
import { loadWithReload } from "@/lib/chunk-reload";

/**
 * Route metadata read by the layouts (SPEC §2, STYLE §3.2 rule 9).
 * - `menu`: the normalised path must be in the area's fetched menu, else /403 (the default)
 * - `signedIn`: any signed-in user of the area may open it
 */
export type RouteAccess = "menu" | "signedIn";

export interface RouteHandle {
  /** page title, shown in the browser tab */
  title?: string;
  access?: RouteAccess;
}

type ComponentKeys<M> = { [K in keyof M]: M[K] extends ComponentType ? K : never }[keyof M];

/**
 * One lazy page route: adding a page is one line in the feature's `*.routes.tsx`.
 * @param path route path, relative to the area's layout
 * @param title page title
 * @param load dynamic import of the page module
 * @param name the page component's export name
 * @param handle more route metadata
 */
export function pageRoute<M, K extends ComponentKeys<M>>(
  path: string,
  title: string,
  load: () => Promise<M>,
  name: K,
  handle: Omit<RouteHandle, "title"> = {},
): RouteObject {
  return {
    path,
    handle: { title, ...handle } satisfies RouteHandle,
    lazy: async () => {
      const mod = await loadWithReload(load);
      return { Component: mod[name] as ComponentType };
    },
  };
}

/**
 * A lazy layout or standalone route component, with the same reload-once guard.
 * @param load dynamic import of the module
 * @param name the component's export name
 */
export function lazyComponent<M, K extends ComponentKeys<M>>(load: () => Promise<M>, name: K) {
  return async () => {
    const mod = await loadWithReload(load);
    return { Component: mod[name] as ComponentType };
  };
}
