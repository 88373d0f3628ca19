import { CONSOLE_HOME_PATH, CONSOLE_LIST_PATH, CONSOLE_LOGIN_PATH, CONSOLE_LOGOUT_PATH } from '../domain/console-paths.js';
import type { Language } from '../domain/language.js';
import { html, pageHead, type Html } from '../platform/html.js';
import { MIN_PASSWORD_LENGTH } from '../tenancy/console-users.js';
import type { ConsoleUser } from './sessions.js';
import type { ConsoleContext } from './render.js';
import { TEXTS } from './texts.js';

/** The frame of every console page: the portal's stylesheet, skip link, language switcher, main landmark. */
export function layout(ctx: ConsoleContext, title: string, body: Html, opts: { hasError?: boolean } = {}): Html {
  const t = TEXTS[ctx.lang];
  const other: Language = ctx.lang === 'nl' ? 'en' : 'nl';
  return html`${pageHead({ lang: ctx.lang, title: `${opts.hasError ? `${t.errorSummary}: ` : ''}${title} – ${t.siteName}`, stylesheets: ['/assets/portal.css'] })}
<body>
<a class="skip-link" href="#main">${t.skipToContent}</a>
<header class="site-header">
<span class="brand"><span>${t.siteName}</span></span>
<a class="lang-switch" href="${ctx.path}?lang=${other}" hreflang="${other}" lang="${other}">${TEXTS[other].languageName}</a>
</header>
<main id="main" tabindex="-1">
${body}
</main>
</body>
</html>`;
}

function errorSummary(ctx: ConsoleContext, errors: Array<{ href: string; message: string }>): Html {
  return html`<div class="error-summary" role="alert" aria-labelledby="error-summary-title" tabindex="-1">
<h2 id="error-summary-title">${TEXTS[ctx.lang].errorSummary}</h2>
<ul>${errors.map((e) => html`<li><a href="${e.href}">${e.message}</a></li>`)}</ul>
</div>`;
}

export interface LoginState {
  email?: string;
  /** Why the last attempt failed: one text for a wrong password and an unknown address alike. */
  error?: string;
  /** A notice above the form (password set, signed out). */
  notice?: string;
}

export function loginPage(ctx: ConsoleContext, csrf: string, state: LoginState = {}): Html {
  const t = TEXTS[ctx.lang];
  const invalid = state.error ? html` aria-invalid="true" aria-describedby="login-error"` : '';
  return layout(
    ctx,
    t.signInTitle,
    html`${state.error ? errorSummary(ctx, [{ href: '#f-email', message: state.error }]) : ''}
<h1>${t.signInTitle}</h1>
${state.notice ? html`<p class="notice" role="status">${state.notice}</p>` : html`<p class="lead">${t.signInIntro}</p>`}
<form method="post" action="${CONSOLE_LOGIN_PATH}" novalidate>
<input type="hidden" name="_csrf" value="${csrf}">
<div class="field${state.error ? ' has-error' : ''}">
<label for="f-email">${t.email}</label>
${state.error ? html`<p class="field-error" id="login-error">${state.error}</p>` : ''}
<input id="f-email" name="email" type="email" autocomplete="username" spellcheck="false" value="${state.email ?? ''}" required aria-required="true"${invalid}>
</div>
<div class="field">
<label for="f-password">${t.password}</label>
<input id="f-password" name="password" type="password" autocomplete="current-password" required aria-required="true">
</div>
<button type="submit" class="primary">${t.signIn}</button>
</form>`,
    { hasError: Boolean(state.error) },
  );
}

export function setPasswordPage(ctx: ConsoleContext, action: string, csrf: string, email: string, error?: string): Html {
  const t = TEXTS[ctx.lang];
  return layout(
    ctx,
    t.setPasswordTitle,
    html`${error ? errorSummary(ctx, [{ href: '#f-password', message: error }]) : ''}
<h1>${t.setPasswordTitle}</h1>
<p class="lead">${t.setPasswordIntro(email)}</p>
<form method="post" action="${action}" novalidate>
<input type="hidden" name="_csrf" value="${csrf}">
<input type="hidden" name="email" autocomplete="username" value="${email}">
<div class="field${error ? ' has-error' : ''}">
<label for="f-password">${t.newPassword}</label>
<p class="hint" id="password-hint">${t.passwordHint(MIN_PASSWORD_LENGTH)}</p>
${error ? html`<p class="field-error" id="password-error">${error}</p>` : ''}
<input id="f-password" name="password" type="password" autocomplete="new-password" minlength="${MIN_PASSWORD_LENGTH}" required aria-required="true" aria-describedby="password-hint${error ? ' password-error' : ''}"${error ? html` aria-invalid="true"` : ''}>
</div>
<button type="submit" class="primary">${t.setPassword}</button>
</form>`,
    { hasError: Boolean(error) },
  );
}

/** The sign-out button: a form, since signing out changes state on the server. */
export function signOutForm(ctx: ConsoleContext, csrf: string): Html {
  return html`<form method="post" action="${CONSOLE_LOGOUT_PATH}" class="actions">
<input type="hidden" name="_csrf" value="${csrf}">
<button type="submit">${TEXTS[ctx.lang].signOut}</button>
</form>`;
}

export function homePage(ctx: ConsoleContext, user: ConsoleUser, csrf: string): Html {
  const t = TEXTS[ctx.lang];
  return layout(
    ctx,
    t.homeTitle,
    html`<h1>${t.homeTitle}</h1>
<dl class="card">
<dt>${t.signedInAs}</dt><dd class="who">${user.email}</dd>
<dt>${t.roleLabel}</dt><dd class="role">${t.roles[user.role]}</dd>
</dl>
<p><a href="${CONSOLE_LIST_PATH}">${t.candidatesLink}</a></p>
${signOutForm(ctx, csrf)}`,
  );
}

export function messagePage(
  ctx: ConsoleContext,
  title: string,
  text: string,
  link: { href: string; label: string } = { href: CONSOLE_HOME_PATH, label: TEXTS[ctx.lang].backToConsole },
): Html {
  return layout(ctx, title, html`<h1>${title}</h1>\n<p>${text}</p>\n<p><a href="${link.href}">${link.label}</a></p>`);
}
