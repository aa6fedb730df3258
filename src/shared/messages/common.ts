/**
 * The texts every page may show: the top bar, the footer, loading and failure states, the page
 * that is not there. The home page's first download carries this module, so it holds nothing
 * that only signed-in pages show.
 */
import { MIN_ORDER_QUANTITY } from "../constants.js";

/** "1 review", "5 reviews". */
export const countOf = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;

/**
 * A paged list's count under its caption: "1 entry", "1,250 entries", and past what is counted
 * exactly, "More than 10,000 entries".
 */
export const listCounts = (one: string, many: string) => ({
  count: (n: number) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`,
  countMore: (n: number) => `More than ${n.toLocaleString("en-US")} ${many}`,
});

export const commonMessages = {
  loadFailed: "Something went wrong while loading. Please try again.",
  retry: "Try again",
  loading: "Loading…",
  networkError: "The shop could not be reached. Check your connection and try again.",
  /** After the message of a failure on the shop's side (5xx): the request's id, for support to find its log line. */
  reference: (requestId: string) => `Reference: ${requestId}`,
  signedOut: "You are signed out.",
  signOutFailed: "Signing out failed. Please try again.",
  pageFailed: "This page could not be shown",
  pageFailedLead: "Something went wrong or the connection dropped. Reload the page to try again.",
  reload: "Reload page",
  unstorableText:
    "The request holds characters the shop cannot store (invalid UTF-8, a NUL or half a surrogate pair).",
  notFound: "Oops! Sorry.....",
  notFoundLead: "The page you are looking for does not exist or has moved.",
  notFoundAlt: "An unplugged cable looking for its socket",
  backHome: "Back to the home page",
  browseProducts: "Browse products",
  nav: {
    brand: "Gearhouse",
    label: "Main",
    menu: "Menu",
    skipToContent: "Skip to content",
    home: "Home",
    about: "About",
    blogs: "Blogs",
    products: "Products",
    dashboard: "Dashboard",
    login: "Login",
    signOut: "Sign Out",
  },
  footer: {
    tagline: `Gaming keyboards, mice, memory, headphones and cooling fans, in bulk from ${MIN_ORDER_QUANTITY} units.`,
    title: "Shop links and newsletter",
    navLabel: "Site links",
    shop: "Shop",
    explore: "Explore",
    company: "company",
    support: "Support",
    allProducts: "All products",
    reviews: "Customer reviews",
    videos: "Videos",
    ique: "Gearhouse iQue",
    about: "About us",
    blogs: "Blogs",
    business: "Business summary",
    shipping: "Shipping and bulk orders",
    help: "Help and contact",
    myOrders: "My orders",
    passwordReset: "Reset your password",
    newsletter: "Newsletter",
    newsletterText: "New arrivals, restocks and build guides, once a month.",
    emailLabel: "Email address",
    emailPlaceholder: "you@example.com",
    subscribe: "Subscribe",
    subscribeNote: "Thanks! Newsletter sign-up opens soon.",
    copyright: (year: number) => `© ${year} Gearhouse. All prices in US dollars.`,
  },
} as const;
