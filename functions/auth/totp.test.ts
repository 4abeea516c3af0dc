import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { codigoDoPasso, hashRecuperacao, novoSegredo, novosCodigosRecuperacao, passoAtual, passoDoCodigo, recuperacaoCorrespondente, tipoDoCodigo, uriDoSegredo } from './totp';

// RFC 6238 appendix B's SHA-1 seed, "12345678901234567890", in base32.
const RFC = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

describe('time-based codes (RFC 6238)', () => {
  it("agree with the RFC's test vectors (their last six digits)", () => {
    // Appendix B: T = 59 s → 94287082, 1111111109 → 07081804, 1234567890 → 89005924, 2000000000 → 69279037.
    expect(codigoDoPasso(RFC, passoAtual(59_000))).toBe('287082');
    expect(codigoDoPasso(RFC, passoAtual(1_111_111_109_000))).toBe('081804');
    expect(codigoDoPasso(RFC, passoAtual(1_234_567_890_000))).toBe('005924');
    expect(codigoDoPasso(RFC, passoAtual(2_000_000_000_000))).toBe('279037');
  });

  it("accept the previous, current and next step's code and name its step; refuse the others and anything not six digits", () => {
    const agora = 1_700_000_000_000;
    const p = passoAtual(agora);
    for (const d of [-1, 0, 1]) expect(passoDoCodigo(RFC, codigoDoPasso(RFC, p + d), agora)).toBe(p + d);
    for (const d of [-3, -2, 2, 3]) {
      const c = codigoDoPasso(RFC, p + d);
      // (a code of another step may equal one of the window's by chance: one in a million)
      if (![-1, 0, 1].some((w) => codigoDoPasso(RFC, p + w) === c)) expect(passoDoCodigo(RFC, c, agora)).toBeNull();
    }
    for (const bad of ['', '12345', '1234567', 'abcdef', '12 345']) expect(passoDoCodigo(RFC, bad, agora)).toBeNull();
  });

  it('make 160-bit secrets and an otpauth URI any authenticator app reads', () => {
    const s = novoSegredo();
    expect(s).toMatch(/^[A-Z2-7]{32}$/);
    expect(novoSegredo()).not.toBe(s);
    const uri = new URL(uriDoSegredo(s, 'ana@sefaz.ba.gov.br'));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(Object.fromEntries(uri.searchParams)).toMatchObject({ secret: s, issuer: 'PLAC Fat-e', algorithm: 'SHA1', digits: '6', period: '30' });
  });
});

describe('recovery codes', () => {
  it('are ten distinct XXXXX-XXXXX codes, read in any case, with or without the dash', () => {
    const codigos = novosCodigosRecuperacao();
    expect(codigos).toHaveLength(10);
    expect(new Set(codigos).size).toBe(10);
    for (const c of codigos) expect(c).toMatch(/^[A-Z2-7]{5}-[A-Z2-7]{5}$/);
    expect(tipoDoCodigo(codigos[0]!.toLowerCase().replace('-', ''))).toEqual({ tipo: 'recuperacao', codigo: codigos[0] });
    expect(tipoDoCodigo(' 123 456 ')).toEqual({ tipo: 'totp', codigo: '123456' });
    expect(tipoDoCodigo('ABCDE-1234')).toBeNull();
    expect(tipoDoCodigo('')).toBeNull();
  });

  it('are kept as HMACs under a key of their own and matched to the one stored', () => {
    const chave = randomBytes(32);
    const codigos = novosCodigosRecuperacao();
    const guardados = codigos.map((c) => hashRecuperacao(chave, c));
    expect(guardados.join()).not.toContain(codigos[0]);
    expect(recuperacaoCorrespondente(chave, codigos[4]!, guardados)).toBe(guardados[4]);
    expect(recuperacaoCorrespondente(randomBytes(32), codigos[4]!, guardados)).toBeNull();
    expect(recuperacaoCorrespondente(chave, 'AAAAA-AAAAA', guardados)).toBeNull();
  });
});
