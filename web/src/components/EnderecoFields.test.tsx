import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { pickOption } from '../test/api-stub';
import { EMPTY_ENDERECO, EnderecoFields, type EnderecoField, type EnderecoValues } from './EnderecoFields';


function Form({ initial = EMPTY_ENDERECO, fields, missing = [], registration }: { initial?: EnderecoValues; fields?: EnderecoField[]; missing?: string[]; registration?: boolean }) {
  const [values, setValues] = useState(initial);
  return (
    <EnderecoFields
      fields={fields}
      values={values}
      onChange={(changes) => setValues((v) => ({ ...v, ...changes }))}
      missing={new Set(missing)}
      error={null}
      registration={registration}
    />
  );
}

const input = (label: string) => screen.getByLabelText(label) as HTMLInputElement;

describe('EnderecoFields', { timeout: 30_000 }, () => {
  it('shows every field in order, each required but the complement, pointing at its messages', () => {
    const { container } = render(<Form />);
    expect([...container.querySelectorAll('label')].map((l) => l.textContent)).toEqual([
      'Razão Social',
      'Logradouro',
      'Número',
      'Complemento',
      'Bairro',
      'UF',
      'Cidade',
      'CEP',
      'Telefone',
      'Nome do Responsável',
      'E-mail',
    ]);
    expect(input('Razão Social').getAttribute('aria-required')).toBe('true');
    expect(input('Razão Social').getAttribute('aria-describedby')).toBe('razao_social-error');
    expect(input('Complemento').getAttribute('aria-required')).toBeNull();
    // The client's form: no placeholder, no autofill.
    expect(input('Telefone').placeholder).toBe('');
    expect(input('E-mail').getAttribute('autocomplete')).toBeNull();
  });

  it('shows only the given fields, in their order; a registration hints the telephone and lets the e-mail fill', () => {
    const { container } = render(<Form fields={['razao_social', 'nome_responsavel', 'email', 'telefone']} registration />);
    expect([...container.querySelectorAll('label')].map((l) => l.textContent)).toEqual(['Razão Social', 'Nome do Responsável', 'E-mail', 'Telefone']);
    expect(input('Telefone').placeholder).toBe('(__) _____-____');
    expect(input('E-mail').getAttribute('autocomplete')).toBe('email');
  });

  it('says which fields are missing and marks them invalid', () => {
    render(<Form missing={['razao_social', 'cep']} />);
    expect(screen.getByText('O campo Razão Social é obrigatório.').closest('small')!.id).toBe('razao_social-error');
    expect(screen.getByText('O campo CEP é obrigatório.')).toBeTruthy();
    expect(input('Razão Social').classList.contains('p-invalid')).toBe(true);
    expect(input('Logradouro').classList.contains('p-invalid')).toBe(false);
  });

  it('masks the telephone and the CEP', async () => {
    render(<Form />);
    await userEvent.type(input('Telefone'), '71988887777');
    expect(input('Telefone').value).toBe('(71) 98888-7777');
    await userEvent.type(input('CEP'), '40060001');
    expect(input('CEP').value).toBe('40.060-001');
  });

  it('asks for the UF before the city, and changing the UF empties the city', async () => {
    const { rerender } = render(<Form />);
    expect(input('Cidade').disabled).toBe(true);
    rerender(<Form key="ba" initial={{ ...EMPTY_ENDERECO, uf: 'BA', cidade: 'Salvador' }} />);
    expect(input('Cidade').value).toBe('Salvador');
    await pickOption(input('UF'), 'SE - Sergipe');
    expect(input('Cidade').value).toBe('');
    expect(input('Cidade').disabled).toBe(false);
  });
});
