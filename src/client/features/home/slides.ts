import type { Category } from "../../../shared/constants.js";
import type { homeMessages } from "../../../shared/messages/home.js";

/**
 * The home page's banner slides, in order. Plain data, so the build can preload the first slide's
 * image for the home page too (vite.config.ts): it is the page's largest paint.
 */
export const SLIDES: ReadonlyArray<{
  key: keyof typeof homeMessages.slider.slides;
  image: string;
  category: Category;
}> = [
  { key: "keyboard", image: "/media/slides/keyboard.svg", category: "keyboards" },
  { key: "mouse", image: "/media/slides/mouse.svg", category: "mice" },
  { key: "ram", image: "/media/slides/ram.svg", category: "memory" },
  { key: "headphone", image: "/media/slides/headphone.svg", category: "headphones" },
  { key: "coolingFan", image: "/media/slides/cooling-fan.svg", category: "cooling-fans" },
];
