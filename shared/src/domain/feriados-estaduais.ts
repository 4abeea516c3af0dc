import type { Uf } from './uf';

/**
 * The state holidays of the 27 federative units (feriados estaduais: days a state's law declares a
 * holiday, on which the banks of that state do not open), read by feriados.ts. A data file, dated:
 *
 *   Compiled on 2026-11-25 from the date-holidays project's data/countries/BR.yaml (version 3.37, MIT
 *   licence; it cites the Portuguese Wikipedia's "Feriados no Brasil"), whose "active from" dates give
 *   `desde`, corrected where a state's own 2026 calendar says otherwise: Acre's Dia do Evangélico is
 *   23 January (Lei 1.538/2004; date-holidays has 12 January) and its Dia do Católico (20 January,
 *   since 2016) is added, as the Acre government's 2026 calendar has them (reported by g1 Acre,
 *   2026-01-20). Two more are ours and not yet checked against the laws' official texts: Pernambuco's
 *   Data Magna on 6 March since 2018 (date-holidays has the first Sunday of March, the earlier rule)
 *   and Ceará's Dia de São José (19 March), which date-holidays does not list. Review this file once a
 *   year, and whenever a state passes a holiday law.
 *
 * Left out on purpose: days that are national already (21/04 in MG and DF; 20/11 in AL, AM, MT, RJ and
 * SP, national since Lei 14.759/2023; Carnival Tuesday in RJ, a national bank holiday), municipal
 * holidays, optional days (pontos facultativos), and a decree that moves a holiday in one year (Acre's
 * 2026 calendar moved the Dia do Católico from 20/01 to 22/01).
 *
 * A day is 'MM-DD' every year; `pascoa` is that many days after Easter Sunday; `domingoDesde` is the
 * first Sunday on or after that 'MM-DD' (Santa Catarina keeps its two days on a Sunday, so they never
 * move a due date: listed to be complete). `desde` is the first year the holiday applies.
 */

export type RegraFeriado = { dia: string } | { pascoa: number } | { domingoDesde: string };

export type FeriadoEstadual = RegraFeriado & { nome: string; desde?: number };

export const FERIADOS_ESTADUAIS: Readonly<Record<Uf, readonly FeriadoEstadual[]>> = {
  AC: [
    { dia: '01-20', nome: 'Dia do Católico', desde: 2016 },
    { dia: '01-23', nome: 'Dia do Evangélico', desde: 2004 }, // Lei 1.538/2004
    { dia: '03-08', nome: 'Dia Internacional da Mulher', desde: 2002 },
    { dia: '06-15', nome: 'Aniversário do Estado do Acre' },
    { dia: '09-05', nome: 'Dia da Amazônia', desde: 2004 },
    { dia: '11-17', nome: 'Assinatura do Tratado de Petrópolis', desde: 2012 },
  ],
  AL: [
    { dia: '06-24', nome: 'São João' },
    { dia: '06-29', nome: 'São Pedro' },
    { dia: '09-16', nome: 'Emancipação Política de Alagoas' },
  ],
  AM: [{ dia: '09-05', nome: 'Elevação do Amazonas à categoria de Província' }],
  AP: [
    { dia: '03-19', nome: 'Dia de São José', desde: 2002 }, // padroeiro do Amapá
    { dia: '09-13', nome: 'Criação do Território Federal do Amapá' },
  ],
  BA: [{ dia: '07-02', nome: 'Independência da Bahia' }],
  CE: [
    { dia: '03-19', nome: 'Dia de São José' }, // padroeiro do Ceará
    { dia: '03-25', nome: 'Data Magna do Ceará', desde: 2012 },
  ],
  DF: [{ dia: '11-30', nome: 'Dia do Evangélico', desde: 1996 }],
  ES: [{ pascoa: 8, nome: 'Dia de Nossa Senhora da Penha', desde: 2020 }], // Lei 11.010/2019: a segunda-feira oito dias depois da Páscoa
  GO: [
    { dia: '07-26', nome: 'Fundação da Cidade de Goiás' }, // Lei 20.756/2020
    { dia: '10-24', nome: 'Pedra Fundamental de Goiânia' }, // Lei 20.756/2020
  ],
  MA: [{ dia: '07-28', nome: 'Adesão do Maranhão à Independência do Brasil' }],
  MG: [],
  MS: [{ dia: '10-11', nome: 'Criação do Estado de Mato Grosso do Sul', desde: 1980 }],
  MT: [],
  PA: [{ dia: '08-15', nome: 'Adesão do Grão-Pará à Independência do Brasil', desde: 1997 }],
  PB: [
    { dia: '07-26', nome: 'Homenagem a João Pessoa' },
    { dia: '08-05', nome: 'Fundação do Estado da Paraíba' }, // Nossa Senhora das Neves
  ],
  PE: [{ dia: '03-06', nome: 'Data Magna de Pernambuco (Revolução de 1817)', desde: 2018 }],
  PI: [{ dia: '10-19', nome: 'Dia do Piauí' }],
  PR: [{ dia: '12-19', nome: 'Emancipação Política do Paraná', desde: 1962 }],
  RJ: [{ dia: '04-23', nome: 'Dia de São Jorge', desde: 2008 }],
  RN: [{ dia: '10-03', nome: 'Mártires de Cunhaú e Uruaçu', desde: 2007 }],
  RO: [
    { dia: '01-04', nome: 'Criação do Estado de Rondônia', desde: 2011 },
    { dia: '06-18', nome: 'Dia do Evangélico', desde: 2002 },
  ],
  RR: [{ dia: '10-05', nome: 'Criação do Estado de Roraima' }],
  RS: [{ dia: '09-20', nome: 'Revolução Farroupilha' }],
  SC: [
    { domingoDesde: '08-11', nome: 'Data Magna de Santa Catarina', desde: 2005 },
    { domingoDesde: '11-25', nome: 'Dia de Santa Catarina de Alexandria', desde: 2005 },
  ],
  SE: [{ dia: '07-08', nome: 'Emancipação Política de Sergipe' }],
  SP: [{ dia: '07-09', nome: 'Revolução Constitucionalista de 1932', desde: 1997 }],
  TO: [
    { dia: '03-18', nome: 'Autonomia do Estado do Tocantins', desde: 1998 },
    { dia: '09-08', nome: 'Nossa Senhora da Natividade', desde: 1994 }, // padroeira do Tocantins
    { dia: '10-05', nome: 'Criação do Estado do Tocantins', desde: 1990 },
  ],
};
