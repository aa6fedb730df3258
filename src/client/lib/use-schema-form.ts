import { zodResolver } from "@hookform/resolvers/zod";
import { type FieldValues, type Resolver, type UseFormProps, useForm } from "react-hook-form";
import type { z } from "zod";

type Options<Input extends FieldValues, Output> = Omit<
  UseFormProps<Input, unknown, Output>,
  "resolver" | "mode" | "reValidateMode"
>;

/**
 * Loads a form's schema, and zod with it, apart from the page's code: `() => import(…)`. A page
 * that opens first (a prerendered landing page such as /login) then runs no zod before it can be
 * used; its page starts loading the schema once the visitor turns to the form (its focus), and the
 * form's first check waits for it.
 */
export type SchemaLoader<Output, Input> = () => Promise<z.ZodType<Output, Input>>;

const lazyResolvers = new WeakMap<SchemaLoader<unknown, unknown>, Resolver<FieldValues, unknown, unknown>>();

/** The resolver of a loaded schema: the same checks as zodResolver, once the schema is here. */
function lazyResolver<Input extends FieldValues, Output extends FieldValues>(
  load: SchemaLoader<Output, Input>,
): Resolver<Input, unknown, Output> {
  const known = lazyResolvers.get(load as SchemaLoader<unknown, unknown>);
  if (known) return known as unknown as Resolver<Input, unknown, Output>;
  let loaded: Promise<Resolver<Input, unknown, Output>> | undefined;
  const resolver: Resolver<Input, unknown, Output> = async (values, context, options) => {
    loaded ??= load().then((schema) => zodResolver(schema));
    return (await loaded)(values, context, options);
  };
  lazyResolvers.set(load as SchemaLoader<unknown, unknown>, resolver as unknown as Resolver<FieldValues>);
  return resolver;
}

/**
 * A react-hook-form form checked by a zod schema the way every form of the shop is: first when it
 * is submitted, then on every change, so a message goes away as soon as the field is right. The
 * schema itself, or a loader of it (SchemaLoader) for a form on a page that must be usable before
 * zod has run.
 */
export function useSchemaForm<Input extends FieldValues, Output extends FieldValues>(
  schema: z.ZodType<Output, Input> | SchemaLoader<Output, Input>,
  options?: Options<Input, Output>,
) {
  return useForm<Input, unknown, Output>({
    resolver: typeof schema === "function" ? lazyResolver(schema) : zodResolver(schema),
    mode: "onSubmit",
    reValidateMode: "onChange",
    ...options,
  });
}
