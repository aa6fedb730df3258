import { CATEGORY_LABELS as X } from "./cat.ts";
console.log(X);
