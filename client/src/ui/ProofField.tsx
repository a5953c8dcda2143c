import { useEffect, useState } from 'react';
import { useTranslation } from '../lib/translator';
import type { ProofKind } from '@gift/shared/constants';
import { UploadError, uploadProofImage } from '../lib/proofUpload';
import { FileField, TextAreaField, TextField } from './fields';
// its texts are the mission pages' (the only pages it shows on)
import '../features/missions/locales';

/** A link the reviewer can open: a web address. */
export const isProofLink = (link: string) => /^https?:\/\/\S+$/i.test(link.trim());

interface ProofInput {
  value: string;
  onChange: (value: string) => void;
}

/** The link, which says why it is refused once the player leaves it (Claim stays off until it is a web address). */
function LinkProof({ value, onChange }: ProofInput) {
  const { t } = useTranslation();
  const [left, setLeft] = useState(false);
  return (
    <TextField
      label={t('mission.proof.link')}
      error={left && value.trim() && !isProofLink(value) ? t('mission.proof.badLink') : undefined}
      type="url"
      inputMode="url"
      dir="ltr"
      value={value}
      onChange={(event) => onChange(event.target.value)}
      onBlur={() => setLeft(true)}
      placeholder="https://"
      maxLength={500}
      required
    />
  );
}

/** The screenshot, sent as soon as it is chosen; its value is the id the server answers. */
function PictureProof({ value, onChange, onUploading }: ProofInput & { onUploading: (uploading: boolean) => void }) {
  const { t } = useTranslation();
  const [preview, setPreview] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);

  const choose = async (file: File | undefined) => {
    if (!file) return;
    setFailure(null);
    setUploading(true);
    onUploading(true);
    onChange('');
    try {
      const imageId = await uploadProofImage(file);
      setPreview(URL.createObjectURL(file));
      onChange(imageId);
    } catch (error) {
      setFailure(t(`mission.proof.${error instanceof UploadError ? error.reason : 'failed'}`));
    } finally {
      setUploading(false);
      onUploading(false);
    }
  };

  return (
    <FileField
      label={preview ? t('mission.proof.change') : t('mission.proof.image')}
      hint={uploading ? t('mission.proof.uploading') : undefined}
      error={failure}
      accept="image/jpeg,image/png,image/webp,image/gif"
      onChange={(event) => void choose(event.target.files?.[0])}
    >
      {preview && value && <img className="proof-preview" src={preview} alt={t('mission.proof.image')} />}
    </FileField>
  );
}

/** One piece of the proof a Manual mission asks for: a link, a text or a screenshot. */
export function ProofField({ kind, ...input }: ProofInput & { kind: ProofKind; onUploading: (uploading: boolean) => void }) {
  const { t } = useTranslation();
  if (kind === 'link') return <LinkProof {...input} />;
  if (kind === 'image') return <PictureProof {...input} />;
  return (
    <TextAreaField
      label={t('mission.proof.text')}
      value={input.value}
      onChange={(event) => input.onChange(event.target.value)}
      maxLength={1000}
      rows={3}
      required
    />
  );
}
