import NProgress from "nprogress";

NProgress.configure({ showSpinner: false, trickleSpeed: 150 });

let active = 0;

/** Starts the top progress bar; calls nest, so the bar only finishes when the last one does. */
export function progressStart(): void {
  active += 1;
  if (active === 1) NProgress.start();
}

/** Ends one `progressStart`. */
export function progressDone(): void {
  active = Math.max(0, active - 1);
  if (active === 0) NProgress.done();
}
