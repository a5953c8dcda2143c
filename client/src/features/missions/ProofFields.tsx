import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ProofKind } from '@gift/shared/constants';
import { UploadError, uploadProofImage } from '../../lib/proofUpload';

export interface Proof {
  link: string;
  text: string;
  imageId: string;
}

export const EMPTY_PROOF: Proof = { link: '', text: '', imageId: '' };

/** Whether every kind the mission asks for is there (a link that is a web address). */
export function proofComplete(kinds: readonly ProofKind[], proof: Proof): boolean {
  return kinds.every((kind) => {
    if (kind === 'link') return /^https?:\/\/\S+$/i.test(proof.link.trim());
    if (kind === 'text') return proof.text.trim().length > 0;
    return proof.imageId !== '';
  });
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
  onChange: (proof: Proof) => void;
  onUploading: (uploading: boolean) => void;
}) {
  const { t } = useTranslation();
  const [preview, setPreview] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);
  if (!kinds.length) return null;

  const choose = async (file: File | undefined) => {
    if (!file) return;
    setFailure(null);
    setUploading(true);
    onUploading(true);
    onChange({ ...proof, imageId: '' });
    try {
      const imageId = await uploadProofImage(file);
      setPreview(URL.createObjectURL(file));
      onChange({ ...proof, imageId });
    } catch (error) {
      setFailure(t(`mission.proof.${error instanceof UploadError ? error.reason : 'failed'}`));
    } finally {
      setUploading(false);
      onUploading(false);
    }
  };

  return (
    <fieldset className="proof">
      <legend>{t('mission.proof.title')}</legend>
      {kinds.includes('link') && (
        <label className="field">
          <span>{t('mission.proof.link')}</span>
          <input
            type="url"
            inputMode="url"
            dir="ltr"
            value={proof.link}
            onChange={(event) => onChange({ ...proof, link: event.target.value })}
            placeholder="https://"
            maxLength={500}
            required
          />
        </label>
      )}
      {kinds.includes('text') && (
        <label className="field">
          <span>{t('mission.proof.text')}</span>
          <textarea
            value={proof.text}
            onChange={(event) => onChange({ ...proof, text: event.target.value })}
            maxLength={1000}
            rows={3}
            required
          />
        </label>
      )}
      {kinds.includes('image') && (
        <label className="field">
          <span>{preview ? t('mission.proof.change') : t('mission.proof.image')}</span>
          <input
            type="file"
            accept="image/jpeg,image/png,image/webp,image/gif"
            onChange={(event) => void choose(event.target.files?.[0])}
          />
          {uploading && <span className="muted">{t('mission.proof.uploading')}</span>}
          {preview && proof.imageId && <img className="proof-preview" src={preview} alt={t('mission.proof.image')} />}
          {failure && (
            <span className="error-text" role="alert">
              {failure}
            </span>
          )}
        </label>
      )}
    </fieldset>
  );
}
