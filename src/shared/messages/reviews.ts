/** Reviews: the cards and lists everyone sees, and the form a signed-in customer posts with. */
import { RATING_MAX, RATING_MIN } from "../constants.js";
import { countOf } from "./common.js";

export const reviewMessages = {
  // The product's (docs/product.md) wording speaks of 1 star at least, though a rating of RATING_MIN is accepted.
  ratingRange: `Please a rating between 1 and ${RATING_MAX}`,
  rated: (stars: number) => `Rated ${stars} out of ${RATING_MAX}`,
  verified: "Verified buyer",
  staff: "Staff",
  none: "No reviews yet. Be the first to review your gear.",
  commentRequired: "Please write a comment",
  commentTooLong: (max: number) => `A comment can be at most ${max} characters`,
  rateLimited: (max: number, minutes: number) =>
    `You can post at most ${countOf(max, "review")} an hour. Please try again in ${countOf(minutes, "minute")}.`,
  form: {
    title: "Write a review",
    postingAs: (name: string) => `Posting as ${name}, the name on your account.`,
    comment: "Comment",
    commentHint: "What do you like about your gear, and what could be better?",
    rating: "Rating",
    ratingHint: `A whole number from ${RATING_MIN} to ${RATING_MAX} stars.`,
    submit: "Post review",
    posted: "Thanks! Your review is posted.",
    allReviews: "All reviews",
    allReviewsLead: "Newest first.",
    loadMore: "Load more reviews",
    count: (n: number, exact: boolean) =>
      `${exact ? "" : "more than "}${n.toLocaleString("en-US")} ${n === 1 && exact ? "review" : "reviews"}`,
    showing: (shown: number, total: string) => `Showing ${shown.toLocaleString("en-US")} of ${total}.`,
    allShown: (reviews: string) => `Showing all ${reviews}.`,
  },
} as const;
