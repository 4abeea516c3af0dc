import { users, type ResponseOf } from '@plac/shared/contracts';
import { message, MESSAGES } from '@plac/shared/messages';
import { useQueryClient } from '@tanstack/react-query';
import { Avatar } from 'primereact/avatar';
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { FieldError } from '../../components/FieldError';
import { FormField } from '../../components/FormField';
import { AccountField } from '../../components/LoginFields';
import { apiQueryKey, useApiMutation, useApiQuery, useServerFieldErrors } from '../../lib/api';
import { updateUser, useCurrentUser, type SessionUser } from '../../lib/session';
import { toast } from '../../lib/toast';
import { initialsOf, readAvatar } from './avatar';
import { hasErrors, requiredErrors, type LocalErrors } from './loginFlow';
import { SecondFactorPanel } from './SecondFactorPanel';

/** How a text input of the profile is typed. */
interface TextInputLook {
  type?: 'password';
  autoComplete: string;
  maxLength: number;
}

type Profile = ResponseOf<typeof users.profile>;

/** The avatar change waiting for 'Salvar': none, a new picture (data URL), or its removal. */
type ImageChange = { kind: 'keep' } | { kind: 'new'; dataUrl: string } | { kind: 'remove' };

/** The session's user as a profile, while GET /profile has not answered (or failed). */
function fromSession(user: SessionUser): Profile {
  return {
    userId: user.userId,
    name: user.name,
    email: user.email ?? '',
    tipo: user.tipo,
    roles: user.roles,
    image: user.image ?? null,
    prazoSemCertificado: user.prazoSemCertificado ?? null,
    podeAlterarSenha: user.podeAlterarSenha ?? false,
  };
}

/**
 * The profile '/app/profile', for any signed-in user: name, e-mail, the
 * password with its confirmation only when allowed (podeAlterarSenha: Sefaz users, and client users
 * inside their period without certificate), and the avatar (png or jpeg up to 3 MB).
 */
export default function ProfilePage() {
  const sessionUser = useCurrentUser();
  // The server's copy: the avatar's presigned URL in the session expires after a few minutes.
  const query = useApiQuery(users.profile, {});
  if (query.isPending) {
    return (
      <>
        <h1 className="app-page-title">Meu perfil</h1>
        <p role="status">Carregando…</p>
      </>
    );
  }
  const profile = query.data ?? fromSession(sessionUser);
  return <ProfileForm profile={profile} />;
}

function ProfileForm({ profile }: { profile: Profile }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(profile.name);
  const [email, setEmail] = useState(profile.email);
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [currentPassword, setCurrentPassword] = useState('');
  const [image, setImage] = useState<ImageChange>({ kind: 'keep' });
  const [local, setLocal] = useState<LocalErrors>({});
  const fileInput = useRef<HTMLInputElement>(null);
  const canChangePassword = profile.podeAlterarSenha;

  const salvar = useApiMutation(users.updateProfile, {
    onSuccess: (saved) => {
      toast.success(MESSAGES.registroSalvo);
      if (saved.emailPendente && saved.emailPendente !== profile.emailPendente) {
        toast.info(message('emailConfirmacaoEnviada', { email: saved.emailPendente }));
      }
      updateUser(saved);
      queryClient.setQueryData(apiQueryKey(users.profile, {}), saved);
      setName(saved.name);
      setEmail(saved.email);
      setPassword('');
      setConfirmation('');
      setCurrentPassword('');
      setImage({ kind: 'keep' });
    },
  });
  // A field's server messages go when the field changes.
  const server = useServerFieldErrors(salvar.error);
  const invalid = (field: string) => Boolean(local[field]) || Boolean(server.error?.fieldErrors?.[field]);
  /** A text field of the profile; its server messages go when it changes. */
  const texto = (id: string, label: string, field: string, value: string, onValue: (v: string) => void, input: TextInputLook) => (
    <AccountField id={id} label={label} field={field} value={value} onValue={onValue} local={local} server={server} {...input} />
  );

  // The e-mail and the password are what logs the user in: changing either asks for the current password.
  const asksCurrentPassword = email.trim().toLowerCase() !== profile.email.toLowerCase() || (canChangePassword && password !== '');

  const shownImage = image.kind === 'new' ? image.dataUrl : image.kind === 'remove' ? null : profile.image;

  async function pick(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    // Lets the same file be picked again after a refusal.
    event.target.value = '';
    if (!file) return;
    const checked = await readAvatar(file);
    if (!checked.ok) {
      toast.error(checked.message);
      return;
    }
    server.clear('image');
    setImage({ kind: 'new', dataUrl: checked.dataUrl });
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const errors = requiredErrors({ name: { label: 'Nome', value: name }, email: { label: 'E-mail', value: email } });
    if (canChangePassword && (password !== '' || confirmation !== '') && password !== confirmation) {
      errors.password_confirmation = [MESSAGES.senhaConfirmacao];
    }
    if (asksCurrentPassword && currentPassword === '') errors.current_password = [MESSAGES.senhaAtualObrigatoria];
    setLocal(errors);
    if (hasErrors(errors)) return;
    salvar.mutate({
      body: {
        name: name.trim(),
        email: email.trim(),
        ...(canChangePassword && password !== '' ? { password, password_confirmation: confirmation } : {}),
        ...(asksCurrentPassword ? { current_password: currentPassword } : {}),
        ...(image.kind === 'new' ? { image: image.dataUrl } : image.kind === 'remove' ? { image: null } : {}),
      },
    });
  }

  return (
    <>
      <h1 className="app-page-title">Meu perfil</h1>
      <form className="profile-form" onSubmit={submit} noValidate aria-label="Meu perfil">
        <div className="profile-avatar">
          <Avatar
            {...(shownImage ? { image: shownImage, imageFallback: 'default' } : {})}
            label={initialsOf(name || profile.name)}
            imageAlt="Foto do perfil"
            shape="circle"
            size="xlarge"
            aria-label="Foto do perfil"
          />
          <div className="profile-avatar-actions">
            <input
              ref={fileInput}
              type="file"
              accept="image/png,image/jpeg"
              aria-label="Arquivo da foto"
              hidden
              onChange={(e) => void pick(e)}
            />
            <Button type="button" label="Escolher foto" icon="pi pi-image" outlined onClick={() => fileInput.current?.click()} />
            {shownImage && (
              <Button type="button" label="Remover foto" icon="pi pi-trash" severity="danger" text onClick={() => setImage({ kind: 'remove' })} />
            )}
            <small className="profile-hint">png ou jpeg, até 3 MB. A foto é gravada ao salvar.</small>
            <FieldError error={server.error} field="image" id="perfil-foto-error" />
          </div>
        </div>

        {texto('perfil-nome', 'Nome', 'name', name, setName, { autoComplete: 'name', maxLength: 100 })}
        <FormField id="perfil-email" label="E-mail" field="email" error={server.error} messages={local.email}>
          <InputText
            id="perfil-email"
            type="email"
            autoComplete="email"
            value={email}
            maxLength={100}
            onChange={(e) => {
              server.clear('email');
              setEmail(e.target.value);
            }}
            aria-describedby="perfil-email-error perfil-email-pendente"
            invalid={invalid('email')}
          />
        </FormField>
        {profile.emailPendente && (
          <small id="perfil-email-pendente" className="profile-hint" role="status">
            Aguardando a confirmação de {profile.emailPendente}: o e-mail de acesso muda quando o link enviado a ele for aberto.
          </small>
        )}
        {canChangePassword && (
          <>
            {texto('perfil-senha', 'Senha', 'password', password, setPassword, { type: 'password', autoComplete: 'new-password', maxLength: 20 })}
            {texto('perfil-confirmacao', 'Confirmação de senha', 'password_confirmation', confirmation, setConfirmation, {
              type: 'password',
              autoComplete: 'new-password',
              maxLength: 20,
            })}
            <small className="profile-hint">Deixe a senha em branco para mantê-la.</small>
          </>
        )}
        {asksCurrentPassword &&
          texto('perfil-senha-atual', 'Senha atual', 'current_password', currentPassword, setCurrentPassword, {
            type: 'password',
            autoComplete: 'current-password',
            maxLength: 100,
          })}
        <div className="form-actions">
          <Button type="submit" label="Salvar" icon="pi pi-check" loading={salvar.isPending} />
        </div>
      </form>
      <SecondFactorPanel />
    </>
  );
}
