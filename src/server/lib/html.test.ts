import { expect, it } from "vitest";
import { putFirstInBody } from "./html.js";

it.each([
  ["<html><body class=x>a</body></html>", "<html><body class=x>[B]a</body></html>"],
  ["<html><BODY>y", "<html><BODY>[B]y"],
  // <body> may be left out: after </head>, or at the start, where the parser opens the body.
  [
    "<!doctype html><html><head><title>t</title></head><p>x",
    "<!doctype html><html><head><title>t</title></head>[B]<p>x",
  ],
  ["<p>x", "[B]<p>x"],
  // A <bodyguard> element is no <body>.
  ["<head></head><bodyguard>", "<head></head>[B]<bodyguard>"],
])("puts the banner first in the body of %j", (html, expected) => {
  expect(putFirstInBody(html, "[B]")).toBe(expected);
});
