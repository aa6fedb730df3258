/** Image uploads: what the server refuses and why. */
import { MAX_UPLOAD_MEGABYTES } from "../constants.js";
import { countOf } from "./common.js";

export const uploadMessages = {
  tooLarge: `The image is larger than ${MAX_UPLOAD_MEGABYTES} MB. Please choose a smaller one.`,
  unsupported: "Please choose a JPEG, PNG, WebP or GIF image.",
  tooManyPixels: "The image has too many pixels. Please choose a smaller one.",
  missing: "Please choose an image to upload.",
  notFound: "This image does not exist.",
  notMultipart: 'Send the image as multipart/form-data in the field "image".',
  tooManyParts: "Please upload one image at a time.",
  unreadable: "The upload could not be read. Please try again.",
  tooManyAtOnce: (max: number) =>
    `You can upload at most ${countOf(max, "image")} at a time. Please wait for one to finish, then try again.`,
  spoolFull: "The shop is receiving too many uploads right now. Please try again in a few seconds.",
  dailyCount: (max: number, wait: string) =>
    `You can upload at most ${countOf(max, "image")} a day. Try again in ${wait}.`,
  dailyBytes: (megabytes: number, wait: string) =>
    `You can upload at most ${megabytes} MB of images a day. Try again in ${wait}.`,
  /** The wait before a day's upload limit resets, rounded up: "12 minutes", "1 hour", "3 hours". */
  wait: (seconds: number) => {
    const minutes = Math.max(1, Math.ceil(seconds / 60));
    return minutes < 60 ? countOf(minutes, "minute") : countOf(Math.ceil(seconds / 3600), "hour");
  },
} as const;
