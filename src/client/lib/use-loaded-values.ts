import { useEffect } from "react";
import type { FieldPathValue, FieldValues, Path, UseFormReturn } from "react-hook-form";

type FormMethods<T extends FieldValues> = Pick<
  UseFormReturn<T>,
  "getFieldState" | "getValues" | "resetField" | "trigger"
>;

/**
 * Fills a form from data the server sends, when it arrives and whenever it changes (a refetch),
 * without taking away what the user typed: a field the user has changed (react-hook-form's dirty
 * fields) keeps their text; every other field shows the loaded value, which also becomes the value
 * the field's dirtiness is measured against. So the form can be shown, and typed into, before its
 * data has arrived.
 *
 * `loaded` holds plain JSON values (strings, numbers) for top-level fields, or is undefined while
 * loading; it is compared by content, so a new object with the same values changes nothing.
 */
export function useLoadedValues<T extends FieldValues>(
  form: FormMethods<T>,
  loaded: Partial<T> | undefined,
): void {
  const { getFieldState, getValues, resetField, trigger } = form;
  const content = loaded === undefined ? undefined : JSON.stringify(loaded);

  useEffect(() => {
    if (content === undefined) return;
    const values = JSON.parse(content) as Partial<T>;
    const recheck: Path<T>[] = [];
    for (const [field, value] of Object.entries(values)) {
      const name = field as Path<T>;
      const state = getFieldState(name);
      if (state.isDirty) continue;
      const changed = !Object.is(getValues(name), value);
      // Messages stay; one on a field the data has just filled is checked again below (an empty
      // city refused on submit, then the saved city arrives: its "required" message goes).
      resetField(name, {
        defaultValue: value as FieldPathValue<T, Path<T>>,
        keepError: true,
        keepTouched: true,
      });
      if (changed && state.invalid) recheck.push(name);
    }
    if (recheck.length > 0) void trigger(recheck);
  }, [content, getFieldState, getValues, resetField, trigger]);
}
