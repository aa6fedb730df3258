// The only script a prerendered landing page loads up front (see writeLandingPages in
// vite.config.ts). The page is already drawn from its HTML, so the app's code is fetched once the
// browser has painted it, rather than competing with the stylesheet and the largest image for a
// slow connection before the first paint. The entry and the chunks it imports come from #root.
const root = document.getElementById("root");
const entry = root?.dataset.entry;

/** A page opened in a background tab paints no frame; its code starts after this long anyway. */
const LATEST_START_MS = 1_000;

let started = false;
function start() {
  if (started || !root || !entry) return;
  started = true;
  // Fetched side by side rather than one import at a time as the entry's imports are discovered.
  for (const href of (root.dataset.chunks ?? "").split(" ").filter(Boolean)) {
    const link = document.createElement("link");
    link.rel = "modulepreload";
    link.crossOrigin = "";
    link.href = href;
    document.head.append(link);
  }
  void import(/* @vite-ignore */ entry);
}

if (entry) {
  // The next frame's callback runs just before that frame paints; the timeout, just after it.
  requestAnimationFrame(() => setTimeout(start, 0));
  setTimeout(start, LATEST_START_MS);
}
