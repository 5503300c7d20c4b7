import type { SiteInfo } from "@burrow/contract";
import { StrictMode, useEffect, useState } from "react";
import { createRoot } from "react-dom/client";
import { AntdRoot } from "@/components/AntdRoot";
import { PublicFrame } from "@/components/PublicFrame";
import { fetchSite } from "@/features/auth/login.requests";
import { LoginPage, type LoginPageProps } from "@/features/auth/pages/LoginPage";
import { setToken } from "@/lib/token";

function LightLogin(props: LoginPageProps) {
  const [site, setSite] = useState<SiteInfo>();
  useEffect(() => {
    const ctl = new AbortController();
    fetchSite(ctl.signal).then(setSite, () => undefined);
    return () => ctl.abort();
  }, []);
  useEffect(() => {
    document.title = site?.brand ? `登录 - ${site.brand}` : "登录";
  }, [site?.brand]);
  return (
    <PublicFrame site={site}>
      <LoginPage {...props} />
    </PublicFrame>
  );
}

/**
 * A signed-out first visit to /login renders the sign-in page alone — antd's form, the fetch client,
 * no router, React Query or zod — and the console (`openConsole`) loads once the person signs in
 * or follows a link; bench/bundle-size.ts measures what this saves.
 * @param container the page's root element
 * @param openConsole loads and starts the console at the current address
 */
export function startLightLogin(container: HTMLElement, openConsole: () => void): void {
  const root = createRoot(container);
  const leave = (path: string, replace: boolean) => {
    root.unmount();
    if (replace) window.history.replaceState(null, "", path);
    else window.history.pushState(null, "", path);
    openConsole();
  };
  root.render(
    <StrictMode>
      <AntdRoot>
        <LightLogin
          onSignedIn={(token) => {
            setToken(token);
            leave("/dashboard", true);
          }}
          go={(path) => leave(path, false)}
        />
      </AntdRoot>
    </StrictMode>,
  );
}

/** Whether this first load is a signed-out visit to /login (or to /, which goes there). */
export function isLightLogin(pathname: string, token: string | null): boolean {
  return !token && (pathname === "/" || pathname.replace(/\/+$/, "") === "/login");
}
