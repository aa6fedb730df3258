import type { Category } from "../../../shared/catalog.js";

export interface DemoProduct {
  slug: string;
  name: string;
  description: string;
  price: number;
  quantity: number;
  category: Category;
  image: string;
}

export interface DemoReview {
  name: string;
  comment: string;
  rating: number;
}

/**
 * The demo catalog: invented, brand-neutral parts, 4 per category. Prices are whole US dollars per
 * unit; the shop sells in bulk (minimum order 10 units), so `quantity` is the stock in units. Two
 * items are deliberately low on stock. Listed round-robin by category so any slice of the list
 * (home page, "newest" sorting) shows a mix. Art lives in src/client/public/media/products.
 */
export const demoProducts: DemoProduct[] = [
  {
    slug: "vortex-tkl-rgb-mechanical-keyboard",
    name: "Vortex TKL RGB Mechanical Keyboard",
    description:
      "A tenkeyless 87-key board with hot-swappable linear red switches (45 g actuation) and double-shot PBT keycaps. Per-key RGB lighting, 1000 Hz polling and full N-key rollover over a detachable USB-C cable.",
    price: 89,
    quantity: 420,
    category: "keyboards",
    image: "/media/products/vortex-tkl-rgb-mechanical-keyboard.svg",
  },
  {
    slug: "kestrel-lite-wireless-gaming-mouse",
    name: "Kestrel Lite Wireless Gaming Mouse",
    description:
      "A 58 g honeycomb-shell wireless mouse with a 26,000 DPI optical sensor and 650 IPS tracking. The 2.4 GHz dongle polls at 1000 Hz, and the battery lasts up to 80 hours between USB-C charges.",
    price: 79,
    quantity: 540,
    category: "mice",
    image: "/media/products/kestrel-lite-wireless-gaming-mouse.svg",
  },
  {
    slug: "fluxline-ddr5-6000-32gb-rgb-kit",
    name: "Fluxline DDR5-6000 32 GB (2x16 GB) RGB Kit",
    description:
      "Two 16 GB DDR5-6000 CL30-38-38-96 modules at 1.35 V with one-click Intel XMP 3.0 and AMD EXPO profiles. An aluminium heatspreader carries a diffused 10-zone addressable RGB light bar.",
    price: 119,
    quantity: 350,
    category: "memory",
    image: "/media/products/fluxline-ddr5-6000-32gb-rgb-kit.svg",
  },
  {
    slug: "echo-7-1-surround-gaming-headset",
    name: "Echo 7.1 Surround Gaming Headset",
    description:
      "50 mm neodymium drivers (20 Hz-20 kHz, 32 ohm) with virtual 7.1 surround over USB, or plain stereo over the 3.5 mm jack. The detachable cardioid boom mic and memory-foam cushions suit long sessions.",
    price: 69,
    quantity: 390,
    category: "headphones",
    image: "/media/products/echo-7-1-surround-gaming-headset.svg",
  },
  {
    slug: "cyclone-120-argb-pwm-fan",
    name: "Cyclone 120 ARGB PWM Fan",
    description:
      "A 120 mm 4-pin PWM case fan spinning from 400 to 2000 RPM for up to 62 CFM at 2.1 mmH2O. The fluid dynamic bearing is rated for 60,000 hours, and a 5 V 3-pin ARGB ring lights the frame.",
    price: 19,
    quantity: 860,
    category: "cooling-fans",
    image: "/media/products/cyclone-120-argb-pwm-fan.svg",
  },
  {
    slug: "nova-65-wireless-mechanical-keyboard",
    name: "Nova 65% Wireless Mechanical Keyboard",
    description:
      "A 68-key gasket-mounted 65% board with tactile brown switches and a volume knob. Connects tri-mode over 2.4 GHz, Bluetooth 5.1 or USB-C, and its 4000 mAh battery runs up to 200 hours with the RGB off.",
    price: 119,
    quantity: 260,
    category: "keyboards",
    image: "/media/products/nova-65-wireless-mechanical-keyboard.svg",
  },
  {
    slug: "anvil-pro-ergonomic-gaming-mouse",
    name: "Anvil Pro Ergonomic Gaming Mouse",
    description:
      "A right-handed ergonomic shape with a sculpted thumb rest, 8 programmable buttons and a 16,000 DPI optical sensor. Weighs 95 g, glides on PTFE feet and uses a lightweight paracord cable.",
    price: 59,
    quantity: 610,
    category: "mice",
    image: "/media/products/anvil-pro-ergonomic-gaming-mouse.svg",
  },
  {
    slug: "fluxline-ddr5-7200-48gb-kit",
    name: "Fluxline DDR5-7200 48 GB (2x24 GB) Kit",
    description:
      "Two 24 GB DDR5-7200 CL34 modules at 1.40 V, binned for high-frequency Intel platforms with an XMP 3.0 profile. The low-glare black heatspreader carries a brushed accent stripe and no RGB.",
    price: 189,
    quantity: 40,
    category: "memory",
    image: "/media/products/fluxline-ddr5-7200-48gb-kit.svg",
  },
  {
    slug: "aether-wireless-gaming-headset",
    name: "Aether Wireless Gaming Headset",
    description:
      "Low-latency 2.4 GHz wireless plus Bluetooth 5.2 at the same time, driven by 40 mm graphene-coated drivers. The flip-to-mute microphone and 30-hour battery make it an all-day headset for PC and console.",
    price: 129,
    quantity: 210,
    category: "headphones",
    image: "/media/products/aether-wireless-gaming-headset.svg",
  },
  {
    slug: "typhoon-140-argb-pwm-fan",
    name: "Typhoon 140 ARGB PWM Fan",
    description:
      "A 140 mm 4-pin PWM fan with nine blades, 300 to 1600 RPM and up to 78 CFM of airflow at 27 dBA. Daisy-chain connectors link up to six fans, and the dual ARGB rings light both sides of the frame.",
    price: 25,
    quantity: 640,
    category: "cooling-fans",
    image: "/media/products/typhoon-140-argb-pwm-fan.svg",
  },
  {
    slug: "titan-full-size-optical-keyboard",
    name: "Titan Full-Size Optical Keyboard",
    description:
      "A full-size 104-key keyboard with optical switches that actuate in 0.2 ms and are rated for 100 million keystrokes. The aluminium top plate, dedicated media dial and magnetic wrist rest come standard.",
    price: 139,
    quantity: 180,
    category: "keyboards",
    image: "/media/products/titan-full-size-optical-keyboard.svg",
  },
  {
    slug: "quiver-mmo-gaming-mouse",
    name: "Quiver MMO Gaming Mouse",
    description:
      "Twelve mechanical side buttons in a 3x4 grid put a whole action bar under your thumb. The 18,000 DPI sensor, five onboard profiles and a removable 4 x 4.5 g weight set tune it for long raids.",
    price: 69,
    quantity: 300,
    category: "mice",
    image: "/media/products/quiver-mmo-gaming-mouse.svg",
  },
  {
    slug: "stealth-ddr4-3600-16gb-kit",
    name: "Stealth Low-Profile DDR4-3600 16 GB (2x8 GB) Kit",
    description:
      "Two 8 GB DDR4-3600 CL16-19-19-39 modules at 1.35 V with an XMP 2.0 profile. The 34 mm low-profile heatspreader clears large tower air coolers and small-form-factor cases.",
    price: 45,
    quantity: 720,
    category: "memory",
    image: "/media/products/stealth-ddr4-3600-16gb-kit.svg",
  },
  {
    slug: "sonata-open-back-gaming-headphones",
    name: "Sonata Open-Back Gaming Headphones",
    description:
      "Open-back headphones with 50 mm dynamic drivers (10 Hz-40 kHz, 38 ohm) for a wide, natural soundstage and precise footstep imaging. Breathable velour pads and a detachable 3.5 mm cable with inline mic.",
    price: 99,
    quantity: 150,
    category: "headphones",
    image: "/media/products/sonata-open-back-gaming-headphones.svg",
  },
  {
    slug: "whisper-120-silent-pwm-fan",
    name: "Whisper 120 Silent PWM Fan",
    description:
      "A 120 mm 4-pin PWM fan tuned for quiet: 200 to 1200 RPM at no more than 18 dBA with 41 CFM of airflow. Anti-vibration rubber corners and a fluid dynamic bearing keep it silent for years.",
    price: 22,
    quantity: 700,
    category: "cooling-fans",
    image: "/media/products/whisper-120-silent-pwm-fan.svg",
  },
  {
    slug: "pulse-60-compact-keyboard",
    name: "Pulse 60% Compact Keyboard",
    description:
      "A 61-key 60% keyboard with clicky blue switches, south-facing RGB and a detachable USB-C cable. Arrow keys and media controls sit on a function layer, freeing desk space for wide mouse swipes.",
    price: 49,
    quantity: 25,
    category: "keyboards",
    image: "/media/products/pulse-60-compact-keyboard.svg",
  },
  {
    slug: "drift-ambidextrous-gaming-mouse",
    name: "Drift Ambidextrous Gaming Mouse",
    description:
      "A symmetrical 72 g wired mouse for either hand with an 8,000 DPI sensor, 1000 Hz polling and six buttons. Switches are rated for 20 million clicks, and the RGB logo can be switched off.",
    price: 29,
    quantity: 880,
    category: "mice",
    image: "/media/products/drift-ambidextrous-gaming-mouse.svg",
  },
  {
    slug: "prism-ddr4-3200-32gb-rgb-kit",
    name: "Prism DDR4-3200 32 GB (2x16 GB) RGB Kit",
    description:
      "Two 16 GB DDR4-3200 CL16 modules at 1.35 V with XMP 2.0, a safe upgrade for AM4 and older Intel builds. A full-length frosted diffuser spreads the addressable RGB across the top of each stick.",
    price: 79,
    quantity: 480,
    category: "memory",
    image: "/media/products/prism-ddr4-3200-32gb-rgb-kit.svg",
  },
  {
    slug: "bolt-lightweight-stereo-headset",
    name: "Bolt Lightweight Stereo Headset",
    description:
      "A 240 g stereo headset with 40 mm drivers, a self-adjusting suspension band and a flexible boom mic. One 3.5 mm TRRS plug works with PCs, consoles and phones.",
    price: 29,
    quantity: 900,
    category: "headphones",
    image: "/media/products/bolt-lightweight-stereo-headset.svg",
  },
  {
    slug: "gale-120-high-static-pressure-fan",
    name: "Gale 120 High Static Pressure Fan",
    description:
      "A radiator and heatsink fan with eleven tightly pitched blades, 500 to 3000 RPM and up to 4.2 mmH2O of static pressure. The dual ball bearing and reinforced frame are built for push-pull setups.",
    price: 29,
    quantity: 300,
    category: "cooling-fans",
    image: "/media/products/gale-120-high-static-pressure-fan.svg",
  },
];

export const demoReviews: DemoReview[] = [
  {
    name: "Maya Chen",
    comment:
      "We ordered 40 Cyclone 120 fans for our lab build-out and every single one arrived quiet and balanced. The ARGB rings sync perfectly with our boards.",
    rating: 5,
  },
  {
    name: "Daniel Okafor",
    comment:
      "The Fluxline DDR5-6000 kits ran their EXPO profile on the first boot in all twelve rigs. Delivery took a day longer than promised, otherwise flawless.",
    rating: 4,
  },
  {
    name: "Sofia Lindqvist",
    comment:
      "Our esports club switched to the Vortex TKL and the players love the linear switches. Bulk pricing made outfitting the whole team painless.",
    rating: 5,
  },
  {
    name: "Arjun Patel",
    comment:
      "Kestrel Lite mice are feather-light and the battery easily lasts a week of tournaments. I wish the dongle had a longer extension cable in the box.",
    rating: 4,
  },
  {
    name: "Lucía Romero",
    comment:
      "The Echo headsets sound great for the price, and the detachable mics were a lifesaver when a few got damaged in transport to our LAN event.",
    rating: 4,
  },
  {
    name: "Tom Becker",
    comment:
      "Solid Whisper fans for our office workstations. A couple of the rubber corners were loose, but support replaced them within the week.",
    rating: 3,
  },
  {
    name: "Hana Sato",
    comment:
      "Ordered 25 Nova 65% boards for our dev team; the tri-mode wireless works flawlessly on Mac and Linux. Packaging was excellent too.",
    rating: 5,
  },
  {
    name: "Marcus Reid",
    comment:
      "Gale fans in push-pull on our render nodes dropped CPU temperatures by eight degrees. Great static pressure for the money.",
    rating: 5,
  },
  {
    name: "Priya Nair",
    comment:
      "The Sonata open-backs have a wide soundstage and the velour pads stay comfortable for hours. They leak sound, so they are not for shared offices.",
    rating: 4,
  },
];
