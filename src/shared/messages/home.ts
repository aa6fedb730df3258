/** The home page and its sections (also pages of their own: /business, /reviews, /video, /footer). */
import { MIN_ORDER_QUANTITY } from "../constants.js";

export const homeMessages = {
  heading: "Gearhouse: gaming computer parts",
  tagline: "Gaming computer parts",
  slider: {
    label: "Featured gear",
    previous: "Previous slide",
    next: "Next slide",
    goTo: (slide: number) => `Go to slide ${slide}`,
    position: (slide: number, total: number) => `${slide} of ${total}`,
    pause: "Pause slideshow",
    play: "Play slideshow",
    slides: {
      keyboard: {
        alt: "RGB mechanical gaming keyboard",
        title: "RGB gaming keyboards",
        text: "Hot-swappable switches, per-key lighting and solid frames built for marathon sessions.",
        cta: "Shop keyboards",
      },
      mouse: {
        alt: "Gaming mouse on an RGB mouse pad",
        title: "Precision gaming mice",
        text: "Light shells, high-accuracy sensors and low-latency wireless for every flick shot.",
        cta: "Shop mice",
      },
      ram: {
        alt: "DDR5 RGB memory modules",
        title: "Fast RGB memory",
        text: "DDR5 and DDR4 kits with tuned timings and lit heat spreaders that match your build.",
        cta: "Shop memory",
      },
      headphone: {
        alt: "Wireless gaming headset on a stand",
        title: "Gaming headphones",
        text: "Positional audio, clear microphones and soft cushions for long nights in voice chat.",
        cta: "Shop headphones",
      },
      coolingFan: {
        alt: "Three ARGB cooling fans in a row",
        title: "RGB cooling fans",
        text: "High airflow and low noise keep your CPU and GPU at full boost while the lights sync.",
        cta: "Shop cooling fans",
      },
    },
  },
  exploreProducts: "Explore Products",
  exploreProductsLead: `A first look at the catalog. Every part ships from ${MIN_ORDER_QUANTITY} units, ideal for teams, cafés and builders.`,
  allProducts: "Browse all products",
  businessSummary: "Business Summary",
  businessSummaryLead: "How Gearhouse is doing, month by month.",
  stats: {
    traffic: { title: "Traffic", value: "128K", change: "↗︎ 21% more than last month" },
    newUsers: { title: "New Users", value: "4,200", change: "↗︎ 400 (11%) more than last month" },
    sales: { title: "Sales", value: "$86K", change: "↗︎ 14% more than last month" },
    performance: {
      title: "Performance",
      value: "98.7%",
      change: "↗︎ 1.2% more on-time deliveries than last month",
    },
  },
  customerReviews: "Customer Reviews",
  customerReviewsLead: "What builders say about the gear they ordered.",
  video: {
    eyebrow: "Gearhouse in motion",
    title: "Build a setup that glows in sync",
    text: "Keyboards, mice, memory, headsets and fans that look as fast as they run, shipped to your door.",
    cta: "Shop the gear",
    play: "Play video",
    pause: "Pause video",
  },
  videoCards: {
    title: "Watch and learn",
    lead: "Short guides from our workshop.",
    watch: "Watch video",
    cards: {
      airflow: {
        title: "Build a silent airflow setup",
        text: "Where to put intake and exhaust fans, and how to set fan curves for a cool, quiet case.",
        alt: "Cooling fans pushing air through a gaming PC case",
      },
      mouseDpi: {
        title: "Tune your mouse DPI",
        text: "Find the sensitivity that fits your games and keep your aim the same across them.",
        alt: "Gaming mouse with its DPI stages",
      },
      rgbSync: {
        title: "Sync RGB across parts",
        text: "Make keyboard, mouse, memory and fans move as one light show with Gearhouse iQue.",
        alt: "Keyboard, mouse and fans lit in the same colours",
      },
    },
  },
} as const;
