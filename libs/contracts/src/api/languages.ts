import { z } from 'zod';

/**
 * One way to name a language in requests: every field or query parameter that takes a language accepts the code
 * (`de`, `en`) and the specification's names (`German`, `English`), in any case. Answers use one form per
 * resource: customers answer `German`/`English` (the specification's values), everything else `de`/`en`.
 */
const SPELLINGS: Record<string, 'de' | 'en'> = { de: 'de', german: 'de', deutsch: 'de', en: 'en', english: 'en', englisch: 'en' };

/** `de` or `en` for any accepted spelling (`German`, `EN`, `deutsch`), else undefined. */
export const languageCodeOf = (v: unknown): 'de' | 'en' | undefined =>
  typeof v === 'string' ? SPELLINGS[v.trim().toLowerCase()] : undefined;

const ACCEPTED = '"de" or "en" (also "German" or "English", in any case)';
const languageError = (iss: { input?: unknown }) =>
  `must be ${ACCEPTED}, not ${typeof iss.input === 'string' ? JSON.stringify(iss.input.slice(0, 40)) : String(iss.input)}`;
const languageMeta = (answered: string, spellings: string[]) => ({
  type: 'string',
  enum: spellings,
  description: `de or en; German and English are accepted too, in any case (answered as ${answered})`,
});

/** A language answered as its code: `de` or `en`. */
export const LanguageCode = z
  .preprocess((v) => languageCodeOf(v) ?? v, z.enum(['de', 'en'], { error: languageError }))
  .meta(languageMeta('de or en', ['de', 'en', 'German', 'English']));

/** A customer's language, answered as the specification's name: `German` or `English`. */
export const CustomerLanguageInput = z
  .preprocess(
    (v) => {
      const code = languageCodeOf(v);
      return code === 'de' ? 'German' : code === 'en' ? 'English' : v;
    },
    z.enum(['English', 'German'], { error: languageError }),
  )
  .meta(languageMeta('German or English', ['English', 'German', 'en', 'de']));
