import type { Dispatch, SetStateAction } from 'react';
import { useTranslation } from '../../lib/translator';
import { PROOF_KINDS, type ProofKind } from '@gift/shared/constants';
import { isProofLink, ProofField } from '../../ui/ProofField';
import './locales';

export interface Proof {
  link: string;
  text: string;
  imageId: string;
}

export const EMPTY_PROOF: Proof = { link: '', text: '', imageId: '' };

/** Where each kind of proof is kept. */
const PROOF_KEY = { link: 'link', text: 'text', image: 'imageId' } as const satisfies Record<ProofKind, keyof Proof>;

/** Whether every kind the mission asks for is there (a link that is a web address). */
export function proofComplete(kinds: readonly ProofKind[], proof: Proof): boolean {
  return kinds.every((kind) => (kind === 'link' ? isProofLink(proof.link) : proof[PROOF_KEY[kind]].trim() !== ''));
}

/** The proof a Manual mission asks for: a link, a text and a screenshot, the screenshot sent as soon as it is chosen. */
export function ProofFields({
  kinds,
  proof,
  onChange,
  onUploading,
}: {
  kinds: readonly ProofKind[];
  proof: Proof;
  onChange: Dispatch<SetStateAction<Proof>>;
  onUploading: (uploading: boolean) => void;
}) {
  const { t } = useTranslation();
  if (!kinds.length) return null;
  return (
    <fieldset className="proof">
      <legend>{t('mission.proof.title')}</legend>
      {PROOF_KINDS.filter((kind) => kinds.includes(kind)).map((kind) => (
        <ProofField
          key={kind}
          kind={kind}
          value={proof[PROOF_KEY[kind]]}
          // the screenshot's id arrives after its upload: kept with what was typed meanwhile
          onChange={(value) => onChange((current) => ({ ...current, [PROOF_KEY[kind]]: value }))}
          onUploading={onUploading}
        />
      ))}
    </fieldset>
  );
}
