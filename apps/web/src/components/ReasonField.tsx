import { TextItem } from "@/components/form/TextItem";

/** The reason an operator gives for an action the customer will see (1–200 characters, required). */
export function ReasonField({ name, label, placeholder }: { name: string; label: string; placeholder?: string }) {
  return (
    <TextItem
      name={name}
      label={label}
      required
      length={{ min: 1, max: 200 }}
      rows={3}
      maxLength={200}
      showCount
      placeholder={placeholder}
    />
  );
}
