import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { AA_CONTRAST, contrastRatio, HEX_COLOUR } from '../domain/colour.js';
import { logoType } from '../domain/logo.js';
import { textProblem } from '../domain/text.js';
import { portalSettings, updatePortalSettings, webhookSecrets, type Logo, type PortalSettings } from '../tenancy/portal-settings-store.js';
import { addMailOptions, mailChanges, mailShown, mailText, type MailOptions } from '../mail/portal-options.js';
import { mailSettings, updateMailSettings } from '../mail/settings-store.js';
import { portalWalkCommand } from './portal-walk.js';
import { CliError, issueWebhookSecret, portalKey, print, withStore } from './shared.js';

const EMAIL = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]{2,}$/;

function onOff(value: string | undefined, option: string): number | undefined {
  if (value === undefined) return undefined;
  if (/^(on|true|yes)$/i.test(value)) return 1;
  if (/^(off|false|no)$/i.test(value)) return 0;
  throw new CliError(`${option} must be on or off, got "${value}"`);
}

function shown(apiKeyId: string, portalDomain: string, s: PortalSettings) {
  return {
    apiKeyId,
    portalDomain,
    organisationName: s.organisation_name,
    logo: s.logo_type,
    colour: s.primary_colour,
    privacyUrl: s.privacy_url,
    contactEmail: s.contact_email,
    signedWebhooks: s.webhook_signing === 1,
    candidateFeedback: s.candidate_feedback === 1,
    candidateRelease: s.candidate_release === 1,
    translatedNorms: s.translated_norms === 1 ? 'allow' : 'deny',
  };
}

function text(p: ReturnType<typeof shown> & ReturnType<typeof mailShown>): string {
  const yes = (b: boolean) => (b ? 'on' : 'off');
  const or = (v: string | null) => v ?? '(none)';
  return [
    `Portal ${p.portalDomain} (key ${p.apiKeyId})`,
    `  organisation:       ${or(p.organisationName)}`,
    `  logo:               ${or(p.logo)}`,
    `  colour:             ${or(p.colour)}`,
    `  privacy statement:  ${or(p.privacyUrl)}`,
    `  contact:            ${or(p.contactEmail)}`,
    `  signed webhooks:    ${yes(p.signedWebhooks)}`,
    `  candidate feedback: ${yes(p.candidateFeedback)}`,
    `  candidate release:  ${yes(p.candidateRelease)}`,
    `  translated norms:   ${p.translatedNorms}`,
    ...mailText(p),
  ].join('\n');
}

/** Each branding option checked; an empty value clears the setting. */
function branding(opts: BrandingOptions): { changes: Partial<PortalSettings>; logo?: Logo } {
  const changes: Partial<PortalSettings> = {};
  const clear = (v: string | undefined) => v !== undefined && v.trim() === '';
  if (opts.name !== undefined) {
    if (opts.name.length > 100) throw new CliError('--name must be at most 100 characters');
    const problem = textProblem('--name', opts.name);
    if (problem) throw new CliError(problem);
    changes.organisation_name = clear(opts.name) ? null : opts.name.trim();
  }
  if (opts.colour !== undefined) {
    if (clear(opts.colour)) changes.primary_colour = null;
    else {
      if (!HEX_COLOUR.test(opts.colour)) throw new CliError(`--colour must be a hex colour such as #1d4ed8, got "${opts.colour}"`);
      const ratio = contrastRatio(opts.colour, '#ffffff');
      if (ratio < AA_CONTRAST) {
        throw new CliError(
          `--colour ${opts.colour} has a contrast of ${ratio.toFixed(2)}:1 with white text; WCAG AA needs ${AA_CONTRAST}:1. Choose a darker colour.`,
        );
      }
      changes.primary_colour = opts.colour.toLowerCase();
    }
  }
  if (opts.privacyUrl !== undefined) {
    if (clear(opts.privacyUrl)) changes.privacy_url = null;
    else {
      let url: URL;
      try {
        url = new URL(opts.privacyUrl);
      } catch {
        throw new CliError('--privacy-url must be an absolute https URL');
      }
      if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new CliError('--privacy-url must be an absolute http(s) URL');
      changes.privacy_url = url.href;
    }
  }
  if (opts.contact !== undefined) {
    if (clear(opts.contact)) changes.contact_email = null;
    else if (!EMAIL.test(opts.contact) || opts.contact.length > 254) throw new CliError(`--contact must be an e-mail address, got "${opts.contact}"`);
    else changes.contact_email = opts.contact;
  }
  if (opts.logo === undefined) return { changes };
  if (clear(opts.logo)) return { changes: { ...changes, logo_type: null, logo_hash: null } };
  let bytes: Buffer;
  try {
    bytes = readFileSync(opts.logo);
  } catch (error) {
    throw new CliError(`--logo: cannot read ${opts.logo}: ${(error as Error).message}`);
  }
  const sniffed = logoType(bytes);
  if ('problem' in sniffed) throw new CliError(`--logo: ${sniffed.problem}`);
  return { changes, logo: { bytes, type: sniffed.type, hash: createHash('sha256').update(bytes).digest('hex').slice(0, 16) } };
}

interface BrandingOptions {
  name?: string;
  logo?: string;
  colour?: string;
  privacyUrl?: string;
  contact?: string;
}

export function portalCommands(program: Command): void {
  const portal = program.command('portal').description("portals: what a candidate sees on an API key's portal domain");

  const set = portal
    .command('set')
    .description("change a portal's settings; the ones not given stay as they are")
    .option('--portal-domain <url>', 'the portal, by its domain')
    .option('--key <key>', 'the portal, by its API key id or prefix')
    .option('--name <name>', 'the organisation that invites candidates ("" clears it)')
    .option('--logo <file>', 'a PNG, JPEG, WebP or SVG logo of at most 256 KiB ("" removes it)')
    .option('--colour <hex>', 'the primary colour, e.g. #0b5394; white text on it must meet WCAG AA')
    .option('--privacy-url <url>', "the organisation's privacy statement")
    .option('--contact <email>', 'where candidates can ask questions')
    .option('--signed-webhooks <on|off>', "add Standard Webhooks signature headers to this portal's webhooks; the first time prints the secret once")
    .option('--candidate-feedback <on|off>', 'after finishing, show the candidate a short summary of their profile')
    .option('--candidate-release <on|off>', 'withhold scores until the candidate agrees to share them (shows the summary first)')
    .option(
      '--translated-norms <allow|deny>',
      "fill the results endpoint's sten and percentile lists for a translation compared with another language's norm group (its Note says so either way)",
    );
  addMailOptions(set)
    .option('--json', 'print JSON')
    .action(
      async (
        opts: BrandingOptions &
          MailOptions & {
            portalDomain?: string;
            key?: string;
            signedWebhooks?: string;
            candidateFeedback?: string;
            candidateRelease?: string;
            translatedNorms?: string;
            json?: boolean;
          },
      ) => {
        const { changes, logo } = branding(opts);
        const mail = mailChanges(opts);
        if ('problem' in mail) throw new CliError(mail.problem);
        const signing = onOff(opts.signedWebhooks, '--signed-webhooks');
        if (signing !== undefined) changes.webhook_signing = signing;
        const feedback = onOff(opts.candidateFeedback, '--candidate-feedback');
        const release = onOff(opts.candidateRelease, '--candidate-release');
        if (feedback !== undefined) changes.candidate_feedback = feedback;
        if (release !== undefined) changes.candidate_release = release;
        if (opts.translatedNorms !== undefined) {
          if (!/^(allow|deny)$/.test(opts.translatedNorms)) throw new CliError(`--translated-norms must be allow or deny, got "${opts.translatedNorms}"`);
          changes.translated_norms = opts.translatedNorms === 'allow' ? 1 : 0;
        }
        const out = await withStore(async (store, config) => {
          const key = await portalKey(store, opts);
          const mailed = Object.keys(mail.changes).length > 0 ? await updateMailSettings(store, key.id, mail.changes) : await mailSettings(store, key.id);
          const settings = { ...shown(key.id, key.portal_domain, await updatePortalSettings(store, key.id, changes, logo)), ...mailShown(mailed) };
          // Signing needs a secret: the first time it is made here and shown this once.
          if (signing === 1 && !(await webhookSecrets(store, key.id)).current) {
            return { ...settings, webhookSecret: await issueWebhookSecret(store, config, key.id, null) };
          }
          return settings;
        });
        print(!!opts.json, out, text(out) + ('webhookSecret' in out ? `\nWebhook signing secret, shown once: ${out.webhookSecret}` : ''));
      },
    );

  portal
    .command('show')
    .description("show a portal's settings")
    .option('--portal-domain <url>', 'the portal, by its domain')
    .option('--key <key>', 'the portal, by its API key id or prefix')
    .option('--json', 'print JSON')
    .action(async (opts: { portalDomain?: string; key?: string; json?: boolean }) => {
      const out = await withStore(async (store) => {
        const key = await portalKey(store, opts);
        return {
          ...shown(key.id, key.portal_domain, await portalSettings(store, key.id)),
          ...mailShown(await mailSettings(store, key.id)),
        };
      });
      print(!!opts.json, out, text(out));
    });

  portalWalkCommand(portal);
}
