import { z } from "zod";
export const c = z.array(z.string());
export const b = 1;
