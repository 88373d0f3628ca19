// @ts-check
// Progressive enhancement for the candidate portal. Every page works without this file.
(function () {
  'use strict';

  // After a failed submit, move focus to the error summary so screen readers announce it.
  var summary = document.querySelector('.error-summary');
  if (summary instanceof HTMLElement) summary.focus();

  // Keep the progress text and bar current while the candidate answers this page.
  var text = document.getElementById('progress-text');
  var bar = document.querySelector('progress');
  var form = document.querySelector('form.questions');
  if (text && bar instanceof HTMLProgressElement && form instanceof HTMLFormElement) {
    var template = text.getAttribute('data-template') || '';
    var elsewhere = Number(text.getAttribute('data-answered-elsewhere') || '0');
    var update = function () {
      var names = new Set();
      form.querySelectorAll('input[type="radio"]:checked').forEach(function (input) {
        names.add(/** @type {HTMLInputElement} */ (input).name);
      });
      var answered = elsewhere + names.size;
      bar.value = answered;
      text.textContent = template.replace('{answered}', String(answered));
    };
    form.addEventListener('change', update);
  }

  // One submit per page: a double click must not post twice. Reset when the page is
  // shown again from the back-forward cache.
  var sent = false;
  document.addEventListener('submit', function (event) {
    if (sent) event.preventDefault();
    sent = true;
  });
  window.addEventListener('pageshow', function () {
    sent = false;
  });
})();
