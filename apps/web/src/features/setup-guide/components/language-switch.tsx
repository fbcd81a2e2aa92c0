import { SETUP_LANGUAGES, type SetupLanguage } from '@canopy/contract';

/** The ID/EN toggle of the Setup Guide: two pressed-or-not buttons in a labelled group. */
export function LanguageSwitch({
  value,
  onChange,
  label,
}: {
  value: SetupLanguage;
  onChange: (language: SetupLanguage) => void;
  label: string;
}) {
  return (
    <fieldset className="flex items-center gap-2">
      <legend className="sr-only">{label}</legend>
      <span aria-hidden="true" className="text-ink-muted text-sm">
        {label}
      </span>
      <div className="inline-flex overflow-hidden rounded-md border border-line">
        {SETUP_LANGUAGES.map((language) => {
          const pressed = language === value;
          return (
            <button
              key={language}
              type="button"
              aria-pressed={pressed}
              data-testid={`language-${language}`}
              onClick={() => onChange(language)}
              className={`px-3 py-1.5 font-semibold text-xs transition-colors ${
                pressed ? 'bg-accent text-accent-ink' : 'bg-surface-raised text-ink-muted hover:text-ink'
              }`}
            >
              {language}
            </button>
          );
        })}
      </div>
    </fieldset>
  );
}
