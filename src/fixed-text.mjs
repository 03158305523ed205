// Long fixed texts the Rust code needs but the wasm doesn't carry (its size budget): parts of
// pages, the Durable Objects' SQL schemas, the OAuth metadata documents and error sentences
// (src/fixed_text.rs says why and which is which).
// wasm-bindgen copies this file into the bindings; esbuild (tests/scripts/build.sh) resolves the
// aliases below to files of the repository and inlines them as strings.
import homeBody from '@logikflow/home-html';
import personSchema from '@logikflow/person-sql';
import pullRequestSchema from '@logikflow/pull-request-sql';
import serverMetadata from '@logikflow/server-metadata';
import resourceMetadata from '@logikflow/resource-metadata';
import notFoundBody from '@logikflow/not-found-html';
import reviewKeys from '@logikflow/review-keys-html';
import reviewKeysHint from '@logikflow/review-keys-hint-html';
import reviewNoOrder from '@logikflow/review-no-order-html';
import settingsTail from '@logikflow/settings-tail-html';
import oauthSentences from '@logikflow/oauth-sentences';
import consentUnverified from '@logikflow/consent-unverified-html';
import consentNote from '@logikflow/consent-note-html';

// In the order of `FixedText`'s numbers (a unit test checks it).
const TEXTS = [
  homeBody,
  personSchema,
  pullRequestSchema,
  serverMetadata,
  resourceMetadata,
  notFoundBody,
  reviewKeys,
  reviewKeysHint,
  reviewNoOrder,
  settingsTail,
  oauthSentences,
  consentUnverified,
  consentNote,
];

// Each file ends with one newline that is not part of its text (src/fixed_text.rs).
export function fixedText(index) {
  const text = TEXTS[index] ?? '';
  return text.endsWith('\n') ? text.slice(0, -1) : text;
}
