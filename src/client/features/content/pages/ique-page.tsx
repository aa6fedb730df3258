import { Link } from "react-router";
import { CATEGORY_LABELS } from "../../../../shared/constants.js";
import { commonMessages } from "../../../../shared/messages/common.js";
import { contentMessages } from "../../../../shared/messages/content.js";
import { homeMessages } from "../../../../shared/messages/home.js";
import { PageHeader } from "../../../components/page-header.js";
import { paths } from "../../../lib/paths.js";

const FEATURES = [
  {
    title: "One app for every zone",
    text: "Keyboard keys, mouse logos, memory light bars, headset cups and fan rings appear on one canvas, placed where they sit on your desk and in your case.",
  },
  {
    title: "Effects that travel",
    text: "Waves, spectrum cycles and colour shifts flow from one device to the next instead of running on separate clocks.",
  },
  {
    title: "Lighting that means something",
    text: "Tie fan colour to CPU or GPU temperature, flash the keyboard on a low-health alert, or pulse with your music.",
  },
  {
    title: "Profiles per game",
    text: "iQue switches to a game's profile when it starts and back to your desktop scene when you quit.",
  },
  {
    title: "Saved on the hardware",
    text: "Profiles are stored in the devices' own memory, so your lighting stays the same on another PC or before the app has loaded.",
  },
  {
    title: "Light on resources",
    text: "A small background service with no ads and no account required, so frames go to your game, not to the lights.",
  },
] as const;

const SUPPORT = [
  { category: "keyboards", what: "Per-key colour, reactive typing effects, layer indicators" },
  { category: "mice", what: "Logo and strip zones, DPI stage colours" },
  { category: "memory", what: "Addressable light bars on each module" },
  { category: "headphones", what: "Ear-cup rings, mute indicator" },
  { category: "cooling-fans", what: "Addressable rings, colour by temperature, fan curves" },
] as const;

/** /ique: Gearhouse iQue, the software that syncs the lighting of every RGB part. */
export function IquePage() {
  return (
    <>
      <PageHeader title={contentMessages.ique} lead={contentMessages.iqueLead}>
        <img
          src="/media/video/card-3.svg"
          alt={homeMessages.videoCards.cards.rgbSync.alt}
          width={800}
          height={450}
          className="mt-8 h-auto w-full max-w-xl rounded-box border border-base-content/10"
        />
      </PageHeader>
      <div className="mx-auto max-w-7xl space-y-16 px-4 py-12 sm:px-6">
        <section aria-labelledby="ique-features">
          <h2 id="ique-features" className="text-2xl font-bold tracking-tight sm:text-3xl">
            What iQue does
          </h2>
          <ul className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {FEATURES.map((feature) => (
              <li key={feature.title} className="card border border-base-content/10 bg-base-200">
                <div className="card-body">
                  <h3 className="card-title">{feature.title}</h3>
                  <p className="text-base-content/80">{feature.text}</p>
                </div>
              </li>
            ))}
          </ul>
        </section>

        <section aria-labelledby="ique-support">
          <h2 id="ique-support" className="text-2xl font-bold tracking-tight sm:text-3xl">
            Supported parts
          </h2>
          <p className="mt-4 max-w-3xl text-base-content/80">
            iQue controls the RGB parts sold at Gearhouse. Look for the RGB mention in a product's
            description.
          </p>
          <div className="mt-6 overflow-x-auto rounded-box border border-base-content/10">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Category</th>
                  <th scope="col">What iQue controls</th>
                </tr>
              </thead>
              <tbody>
                {SUPPORT.map((row) => (
                  <tr key={row.category}>
                    <th scope="row">
                      <Link to={`${paths.tools}?category=${row.category}`} className="link link-hover">
                        {CATEGORY_LABELS[row.category]}
                      </Link>
                    </th>
                    <td>{row.what}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>

        <section aria-labelledby="ique-get" className="rounded-box border border-primary/40 bg-base-200 p-8">
          <h2 id="ique-get" className="text-2xl font-bold tracking-tight">
            Getting iQue
          </h2>
          <p className="mt-4 max-w-3xl text-base-content/85">
            iQue is free for Gearhouse customers and runs on Windows 10 and 11. It is in a closed beta with
            our business customers while we add more devices; when the public release is ready, everyone with
            a Gearhouse account receives the download link by email. Your parts already light up without it,
            using their built-in effects.
          </p>
          <Link to={paths.tools} className="btn btn-primary mt-6">
            {commonMessages.browseProducts}
          </Link>
        </section>
      </div>
    </>
  );
}
