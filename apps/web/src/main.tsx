import "nprogress/nprogress.css";
import "./styles.css";
import { isLightLogin, startLightLogin } from "@/app/login-host";
import { loadWithReload } from "@/lib/chunk-reload";
import { getToken } from "@/lib/token";

const root = document.getElementById("root");
if (!root) throw new Error("#root is missing from index.html");
const container = root;

/** The console is its own chunk: a signed-out visit to /login shows the form without it. */
function openConsole(): void {
  void loadWithReload(() => import("@/app/console-entry")).then((m) => m.startConsole(container));
}

if (isLightLogin(window.location.pathname, getToken())) {
  if (window.location.pathname === "/") window.history.replaceState(null, "", "/login");
  startLightLogin(container, openConsole);
} else {
  openConsole();
}
