// The only script a prerendered landing page loads up front (see writeLandingPages in
// vite.config.ts). The page is already drawn from its HTML, so the app's code is fetched once the
// browser has painted it, rather than competing with the stylesheet and the largest image for a
// slow connection before the first paint. The entry and the chunks it imports come from #root.
const root = document.getElementById("root");
const entry = root?.dataset.entry;

/** A page opened in a background tab paints no frame; its code starts after this long anyway. */
const LATEST_START_MS = 1_000;

/** Resolves in a task of its own, so the browser may paint and answer input in between. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Runs the entry's imports one at a time (`data-steps`: each after what it imports, as the browser
 * would run the whole graph), each in a task of its own, then the entry. Imported as one graph, the
 * framework, the app's modules and the entry ran in one task that held the main thread for a
 * quarter of a second on a slow phone (docs/decisions/first-page-main-thread.md). The order is the
 * same, so the code runs as it would have.
 */
async function run(entry: string, steps: string[]) {
  for (const step of steps) {
    await import(/* @vite-ignore */ step);
    await nextTask();
  }
  await import(/* @vite-ignore */ entry);
}

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
  void run(entry, (root.dataset.steps ?? "").split(" ").filter(Boolean));
}

/**
 * A form that may be sent before the page's code runs (its submit button has `data-early`: the
 * sign-in form, components/submit-button.tsx): its button is enabled as the page shows, rather
 * than when the code has run (1.1–1.8 s later on a slow phone, issue 34). A press before then is
 * held here, never sent by the browser on its own (that would put the password in the address):
 * the code is started at once, and `components/form.tsx` sends the form again once React has it
 * (`data-ready`). Without JavaScript this never runs and the button stays disabled.
 */
function takeEarlyPresses() {
  for (const button of document.querySelectorAll<HTMLButtonElement>("button[data-early]"))
    button.disabled = false;
  document.addEventListener(
    "submit",
    (event) => {
      const form = event.target;
      // Only the forms enabled here, and only until React has them: any other form is React's.
      if (!(form instanceof HTMLFormElement) || form.dataset.ready !== undefined) return;
      if (!form.querySelector("button[data-early]")) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      form.dataset.queued = "";
      start();
    },
    true,
  );
}

if (entry) {
  takeEarlyPresses();
  // The next frame's callback runs just before that frame paints; the timeout, just after it.
  requestAnimationFrame(() => setTimeout(start, 0));
  setTimeout(start, LATEST_START_MS);
}
