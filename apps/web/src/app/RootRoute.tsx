import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { Outlet, useMatches, useNavigation } from "react-router";
import { siteQuery } from "@/features/shell/shell.api";
import { progressDone, progressStart } from "@/lib/progress";
import type { RouteHandle } from "@/lib/route-types";

/** Shows the progress bar while the router loads a lazy page. */
function NavigationProgress() {
  const loading = useNavigation().state === "loading";
  useEffect(() => {
    if (!loading) return;
    progressStart();
    return progressDone;
  }, [loading]);
  return null;
}

/** "页面标题 - 品牌" in the browser tab. */
function DocumentTitle() {
  const matches = useMatches();
  const { data: site } = useQuery({ ...siteQuery(), meta: { silentError: true } });
  const title = [...matches].reverse().find((m) => (m.handle as RouteHandle | undefined)?.title)?.handle as
    | RouteHandle
    | undefined;
  useEffect(() => {
    const parts = [title?.title, site?.brand].filter(Boolean);
    document.title = parts.length ? parts.join(" - ") : "控制台";
  }, [title?.title, site?.brand]);
  return null;
}

/** The root of every route: page-wide effects, then the matched layout. */
export function RootRoute() {
  return (
    <>
      <NavigationProgress />
      <DocumentTitle />
      <Outlet />
    </>
  );
}
