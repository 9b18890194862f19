// The Slack-like page of slackweb. It renders the state pushed by the server
// (GET /api/events) and sends what the person types (POST /api/send).
//
// Safety: message text reaches the page only through text nodes and
// attributes set one by one; nothing is ever parsed as HTML. Slack text
// arrives with &amp; &lt; &gt; entities: they are decoded when a text node
// is made, never before, so "&lt;b&gt;" shows as "<b>" and stays text.
'use strict';

(function () {
  // ---------------------------------------------------------------- helpers

  // el makes an element: attrs are set one by one (on* handlers as
  // listeners), children are nodes or strings (as text nodes).
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k.startsWith('on') && typeof v === 'function') e.addEventListener(k.slice(2), v);
      else if (k === 'class') e.className = v;
      else if (k === 'text') e.textContent = v;
      else e.setAttribute(k, v === true ? '' : String(v));
    }
    for (const c of children) {
      if (c === undefined || c === null || c === false) continue;
      e.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
    }
    return e;
  }

  const $ = (id) => document.getElementById(id);

  // decode turns Slack's three entities back into characters, for text nodes.
  function decode(s) {
    return String(s).replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  }

  // safeURL returns the URL when it is absolute http(s), else null.
  function safeURL(raw) {
    try {
      const u = new URL(raw);
      return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
    } catch (_) {
      return null;
    }
  }

  function tsNumber(ts) { return parseFloat(ts) || 0; }

  function timeOf(ts) {
    const d = new Date(tsNumber(ts) * 1000);
    return {
      short: d.toLocaleTimeString([], { hour: 'numeric', minute: '2-digit' }),
      long: d.toLocaleString(),
      iso: d.toISOString(),
    };
  }

  // A small set of Slack's emoji shortcodes: those bots commonly use.
  const EMOJI = {
    white_check_mark: '\u2705', heavy_check_mark: '\u2714\uFE0F', x: '\u274C', eyes: '\u{1F440}',
    hourglass_flowing_sand: '\u23F3', hourglass: '\u231B', arrows_counterclockwise: '\u{1F504}',
    file_cabinet: '\u{1F5C4}\uFE0F', grey_question: '\u2754', question: '\u2753', grey_exclamation: '\u2755',
    exclamation: '\u2757', warning: '\u26A0\uFE0F', bar_chart: '\u{1F4CA}', chart_with_upwards_trend: '\u{1F4C8}',
    chart_with_downwards_trend: '\u{1F4C9}', robot_face: '\u{1F916}', tada: '\u{1F389}', wave: '\u{1F44B}',
    '+1': '\u{1F44D}', thumbsup: '\u{1F44D}', '-1': '\u{1F44E}', thumbsdown: '\u{1F44E}', rocket: '\u{1F680}',
    memo: '\u{1F4DD}', pencil: '\u{1F4DD}', pencil2: '\u270F\uFE0F', books: '\u{1F4DA}', book: '\u{1F4D6}',
    blue_book: '\u{1F4D8}', bulb: '\u{1F4A1}', no_entry: '\u26D4', no_entry_sign: '\u{1F6AB}', lock: '\u{1F512}',
    information_source: '\u2139\uFE0F', link: '\u{1F517}', mag: '\u{1F50D}', speech_balloon: '\u{1F4AC}',
    page_facing_up: '\u{1F4C4}', sparkles: '\u2728', stopwatch: '\u23F1\uFE0F', zap: '\u26A1',
    hammer_and_wrench: '\u{1F6E0}\uFE0F', gear: '\u2699\uFE0F', red_circle: '\u{1F534}',
    large_green_circle: '\u{1F7E2}', large_yellow_circle: '\u{1F7E1}', large_blue_circle: '\u{1F535}',
    construction: '\u{1F6A7}', clipboard: '\u{1F4CB}', calendar: '\u{1F4C6}', date: '\u{1F4C5}',
    busts_in_silhouette: '\u{1F465}', bust_in_silhouette: '\u{1F464}', globe_with_meridians: '\u{1F310}',
    heart: '\u2764\uFE0F', fire: '\u{1F525}', star: '\u2B50', white_circle: '\u26AA', black_circle: '\u26AB',
    arrow_right: '\u27A1\uFE0F', arrow_up: '\u2B06\uFE0F', arrow_down: '\u2B07\uFE0F', recycle: '\u267B\uFE0F',
    inbox_tray: '\u{1F4E5}', outbox_tray: '\u{1F4E4}', package: '\u{1F4E6}', key: '\u{1F511}',
    hourglass_done: '\u231B', thinking_face: '\u{1F914}', slightly_smiling_face: '\u{1F642}', smile: '\u{1F604}',
    raised_hands: '\u{1F64C}', clap: '\u{1F44F}', pray: '\u{1F64F}', ok_hand: '\u{1F44C}',
  };

  function emojiNode(name) {
    const ch = EMOJI[name];
    if (!ch) return null;
    return el('span', { class: 'emoji', role: 'img', 'aria-label': name.replace(/_/g, ' '), title: ':' + name + ':' }, ch);
  }

  // emojify writes plain text, turning :shortcodes: it knows into emoji.
  function emojify(text, parent) {
    const re = /:([a-z0-9_+'-]+):/g;
    let last = 0;
    let m;
    while ((m = re.exec(text)) !== null) {
      const node = emojiNode(m[1]);
      if (!node) continue;
      if (m.index > last) parent.appendChild(document.createTextNode(text.slice(last, m.index)));
      parent.appendChild(node);
      last = m.index + m[0].length;
    }
    if (last < text.length) parent.appendChild(document.createTextNode(text.slice(last)));
  }

  function initials(name) {
    const parts = String(name || '?').replace(/[^\p{L}\p{N} ._-]/gu, '').split(/[ ._-]+/).filter(Boolean);
    const s = parts.length > 1 ? parts[0][0] + parts[1][0] : (parts[0] || '?').slice(0, 2);
    return s.toUpperCase();
  }

  function colorOf(id) {
    let h = 0;
    for (const c of String(id)) h = (h * 31 + c.charCodeAt(0)) >>> 0;
    const palette = ['#2bac76', '#e01e5a', '#36c5f0', '#ecb22e', '#1264a3', '#8d3b8e', '#c2571a', '#0b8175'];
    return palette[h % palette.length];
  }

  // ------------------------------------------------------------- mrkdwn

  const PH = 0xE000; // placeholders for atoms: Unicode private use area
  const PH_RE = /[\uE000-\uF8FF]/g;
  const MARKS = [['*', 'strong'], ['_', 'em'], ['~', 'del']];
  const markRE = {};
  for (const [m] of MARKS) {
    const q = m === '*' ? '\\*' : m; // only * needs escaping (unicode mode refuses \_ and \~)
    // An opening mark after a start, space or punctuation; content that does
    // not start or end with a space; a closing mark not followed by a word.
    markRE[m] = new RegExp('(^|[^\\p{L}\\p{N}' + q + '])' + q + '(?=[^\\s' + q + '])([^\\n' + q + ']*?[^\\s' + q + '])' + q + '(?![\\p{L}\\p{N}' + q + '])', 'u');
  }

  // markdownToMrkdwn approximates how Slack shows a streamed message's
  // markdown: links, bold, headings and list items, code blocks untouched.
  function markdownToMrkdwn(text) {
    return String(text || '').split('```').map((part, i) => i % 2 === 1 ? part : part
      .replace(/\[([^\]\n]*)\]\(([^)\s]+)\)/g, (all, label, url) => '<' + url + '|' + (label || url) + '>')
      .replace(/\*\*([^*\n]+)\*\*/g, '*$1*')
      .replace(/^#{1,6}\s+(.*)$/gm, '*$1*')
      .replace(/^(\s*)[-*+]\s+/gm, '$1• ')).join('```');
  }

  // renderMrkdwn renders Slack mrkdwn into a fragment.
  function renderMrkdwn(text, ctx) {
    const frag = document.createDocumentFragment();
    const src = String(text || '').replace(PH_RE, '\uFFFD');
    const parts = src.split('```');
    const closed = parts.length % 2 === 1;
    for (let i = 0; i < parts.length; i++) {
      let part = parts[i];
      const isCode = i % 2 === 1 && (closed || i < parts.length - 1);
      if (isCode) {
        part = part.replace(/^\n/, '').replace(/\n$/, '');
        const pre = el('pre', { class: 'pre' });
        renderAtoms(part, pre, ctx, false);
        frag.appendChild(pre);
        continue;
      }
      if (i % 2 === 1) part = '```' + part; // an unmatched fence is text
      if (i > 0 && parts.length > 1) part = part.replace(/^\n/, '');
      if (i < parts.length - 1) part = part.replace(/\n$/, '');
      if (part === '') continue;
      renderLines(part, frag, ctx);
    }
    return frag;
  }

  // renderLines renders text lines, gathering "> " lines into quotes.
  function renderLines(text, parent, ctx) {
    const lines = text.split('\n');
    let quote = null;
    let para = null;
    let quoteRest = false;
    for (const line of lines) {
      let q = null;
      if (quoteRest) q = line;
      else if (line.startsWith('&gt;&gt;&gt;')) { quoteRest = true; q = line.slice(12).replace(/^ /, ''); }
      else if (line.startsWith('&gt;')) q = line.slice(4).replace(/^ /, '');
      if (q !== null) {
        para = null;
        if (!quote) { quote = el('blockquote', { class: 'quote' }); parent.appendChild(quote); }
        else quote.appendChild(el('br'));
        renderAtoms(q, quote, ctx, true);
        continue;
      }
      quote = null;
      if (!para) { para = el('span', { class: 'line-group' }); parent.appendChild(para); }
      else para.appendChild(el('br'));
      renderAtoms(line, para, ctx, true);
    }
  }

  // renderAtoms renders one line: code spans, <...> markup and emoji are
  // atoms; bold, italic and strike are applied around them. In code blocks
  // (format false) only <...> markup is rendered.
  function renderAtoms(text, parent, ctx, format) {
    const atoms = [];
    const keep = (node, all) => {
      if (!node || atoms.length >= 0x18FF) return all;
      atoms.push(node);
      return String.fromCharCode(PH + atoms.length - 1);
    };
    let s;
    if (format) {
      s = text.replace(/`([^`\n]+)`|<([^<>\n]+)>|:([a-z0-9_+'-]+):/g, (all, code, angle, emoji) => {
        if (code !== undefined) return keep(el('code', { class: 'code' }, decode(code)), all);
        if (angle !== undefined) return keep(renderAngle(angle, ctx), all);
        return keep(emojiNode(emoji), all);
      });
      formatInto(s, parent, atoms);
    } else {
      s = text.replace(/<([^<>\n]+)>/g, (all, angle) => keep(renderAngle(angle, ctx), all));
      textInto(s, parent, atoms);
    }
  }

  function formatInto(s, parent, atoms) {
    while (s.length > 0) {
      let best = null;
      for (const [mark, tag] of MARKS) {
        const m = markRE[mark].exec(s);
        if (!m) continue;
        const start = m.index + m[1].length;
        if (!best || start < best.start) best = { start, end: m.index + m[0].length, inner: m[2], tag };
      }
      if (!best) break;
      textInto(s.slice(0, best.start), parent, atoms);
      const e = el(best.tag);
      formatInto(best.inner, e, atoms);
      parent.appendChild(e);
      s = s.slice(best.end);
    }
    textInto(s, parent, atoms);
  }

  // textInto writes text with its placeholders replaced by their atoms.
  function textInto(s, parent, atoms) {
    let last = 0;
    for (let i = 0; i < s.length; i++) {
      const code = s.charCodeAt(i);
      if (code < PH || code >= PH + atoms.length) continue;
      if (i > last) parent.appendChild(document.createTextNode(decode(s.slice(last, i))));
      parent.appendChild(atoms[code - PH]);
      last = i + 1;
    }
    if (last < s.length) parent.appendChild(document.createTextNode(decode(s.slice(last))));
  }

  // renderAngle renders Slack's <...> markup: links, mentions, broadcasts.
  function renderAngle(inner, ctx) {
    const bar = inner.indexOf('|');
    const target = bar >= 0 ? inner.slice(0, bar) : inner;
    const label = bar >= 0 ? inner.slice(bar + 1) : '';
    switch (target[0]) {
      case '@': {
        const id = target.slice(1);
        return el('span', { class: 'mention', title: id }, '@' + (ctx.userName(id) || decode(label) || id));
      }
      case '#': {
        const id = target.slice(1);
        const name = ctx.channelName(id) || decode(label) || id;
        return el('span', { class: 'mention mention-channel', title: id }, '#' + name);
      }
      case '!': {
        const word = target.slice(1);
        if (word === 'channel' || word === 'here' || word === 'everyone') {
          return el('span', { class: 'mention mention-broadcast' }, '@' + word);
        }
        if (word.startsWith('subteam^')) {
          const id = word.slice('subteam^'.length);
          const handle = ctx.groupHandle(id);
          return el('span', { class: 'mention', title: id }, handle ? '@' + handle : decode(label) || '@group');
        }
        return document.createTextNode(decode(label || word));
      }
    }
    const url = safeURL(decode(target));
    const text = decode(label || target);
    if (!url) return document.createTextNode(text);
    return el('a', { href: url, target: '_blank', rel: 'noopener noreferrer', title: url }, text);
  }

  // ------------------------------------------------------------ Block Kit

  function renderTextObject(t, ctx) {
    const span = el('span', { class: 'text-object' });
    if (!t || typeof t.text !== 'string') return span;
    if (t.type === 'mrkdwn') span.appendChild(renderMrkdwn(t.text, ctx));
    else if (t.emoji === false) span.appendChild(document.createTextNode(t.text));
    else emojify(t.text, span);
    return span;
  }

  // imageURL is where an image block or element's picture is: its
  // image_url, or for a file the bot uploaded (slack_file with an id) the
  // page's own copy.
  function imageURL(o) {
    const f = o.slack_file;
    if (f && typeof f.id === 'string' && f.id) return new URL('api/files/' + encodeURIComponent(f.id) + actingQuery(), location.href).href;
    return o.image_url || (f && f.url) || '';
  }

  function renderImage(url, alt, cls) {
    const src = safeURL(url || '');
    if (!src) return el('span', { class: 'image-missing' }, '[image: ' + (alt || 'no valid URL') + ']');
    // The page fetches nothing from other sites (its Content-Security-Policy
    // says so too): an image elsewhere is shown as its description.
    if (new URL(src).origin !== location.origin) return el('span', { class: 'image-missing' }, '[image: ' + (alt || src) + ']');
    return keepBottom(el('img', { class: cls, src, alt: alt || '', loading: 'lazy', referrerpolicy: 'no-referrer' }));
  }

  // keepBottom keeps a message list scrolled to its end when img, loading
  // after the list was scrolled there, makes it taller.
  function keepBottom(img) {
    img.addEventListener('load', () => {
      const box = img.closest('.messages');
      if (box && box.dataset.atBottom === 'true') box.scrollTop = box.scrollHeight;
    }, { once: true });
    return img;
  }

  // Interactive elements act in a scope: the message ({channel, ts}) or
  // view ({view}) holding them. A click goes to the server (POST
  // api/action), which sends the bot a block_actions interaction.

  function plain(t) { return (t && typeof t.text === 'string') ? t.text : ''; }

  function renderButton(b, scope) {
    const cls = 'bk-button' + (b.style === 'primary' ? ' primary' : b.style === 'danger' ? ' danger' : '');
    const text = plain(b.text) || 'Button';
    const url = b.url ? safeURL(b.url) : null;
    // A URL button opens its link in a new tab and, as on Slack, still
    // sends the action to the app (which must acknowledge it).
    const btn = url
      ? el('a', { class: cls + ' bk-link', href: url, target: '_blank', rel: 'noopener noreferrer', title: url, 'data-action-id': b.action_id || '' })
      : el('button', { type: 'button', class: cls, 'data-action-id': b.action_id || '' });
    if (b.accessibility_label) btn.setAttribute('aria-label', b.accessibility_label);
    emojify(text, btn);
    btn.addEventListener('click', () => act(scope, b.action_id, '', btn));
    return btn;
  }

  // renderOverflow is the "⋮" menu of options.
  function renderOverflow(e, scope) {
    const wrap = el('span', { class: 'bk-overflow' });
    const btn = el('button', { type: 'button', class: 'bk-button overflow', 'aria-label': 'More options', 'aria-haspopup': 'menu',
      'aria-expanded': 'false', 'data-action-id': e.action_id || '' }, '\u22EE');
    btn.addEventListener('click', () => {
      openMenu(btn, (e.options || []).map((o) => ({
        label: plain(o.text), onselect: () => {
          const url = o.url ? safeURL(o.url) : null;
          if (url) window.open(url, '_blank', 'noopener,noreferrer');
          act(scope, e.action_id, o.value || '', btn);
        },
      })));
    });
    wrap.appendChild(btn);
    return wrap;
  }

  // renderSelect is a static_select: choosing an option acts at once in a
  // message; in a modal's input block it is read on submit.
  function renderSelect(e, scope, onchange) {
    const sel = el('select', { class: 'bk-select-input', 'data-action-id': e.action_id || '',
      'aria-label': plain(e.placeholder) || 'Choose an option' });
    sel.appendChild(el('option', { value: '' }, plain(e.placeholder) || 'Select an option'));
    const groups = Array.isArray(e.option_groups) ? e.option_groups : [{ options: e.options || [] }];
    for (const g of groups) {
      const parent = g.label ? el('optgroup', { label: plain(g.label) }) : sel;
      for (const o of g.options || []) parent.appendChild(el('option', { value: o.value || '' }, plain(o.text)));
      if (parent !== sel) sel.appendChild(parent);
    }
    if (e.initial_option && e.initial_option.value) sel.value = e.initial_option.value;
    if (onchange) sel.addEventListener('change', () => { if (sel.value) onchange(sel.value, sel); });
    return sel;
  }

  // renderFeedback is a context_actions feedback_buttons pair (thumbs up,
  // thumbs down).
  function renderFeedback(e, scope) {
    const row = el('span', { class: 'bk-feedback', role: 'group', 'aria-label': 'Feedback' });
    for (const [key, face] of [['positive_button', '\u{1F44D}'], ['negative_button', '\u{1F44E}']]) {
      const b = e[key];
      if (!b) continue;
      const btn = el('button', { type: 'button', class: 'bk-button feedback', 'data-action-id': e.action_id || '',
        'aria-label': b.accessibility_label || plain(b.text) || key.replace('_button', ''),
        title: plain(b.text) || '' }, el('span', { class: 'emoji', 'aria-hidden': 'true' }, face), plain(b.text) ? ' ' + plain(b.text) : '');
      btn.addEventListener('click', () => act(scope, e.action_id, b.value || '', btn));
      row.appendChild(btn);
    }
    return row;
  }

  function renderElement(e, ctx, scope) {
    switch (e && e.type) {
      case 'button': return renderButton(e, scope);
      case 'image': return renderImage(imageURL(e), e.alt_text, 'accessory-image');
      case 'overflow': return renderOverflow(e, scope);
      case 'static_select': return renderSelect(e, scope, (v, sel) => act(scope, e.action_id, v, sel));
      case 'feedback_buttons': return renderFeedback(e, scope);
      case 'icon_button': {
        const btn = el('button', { type: 'button', class: 'bk-button icon', 'data-action-id': e.action_id || '',
          'aria-label': e.accessibility_label || plain(e.text) || e.icon || 'icon' }, plain(e.text) || e.icon || '\u2022');
        btn.addEventListener('click', () => act(scope, e.action_id, e.value || '', btn));
        return btn;
      }
      default: {
        const ph = (e && e.placeholder && e.placeholder.text) || (e && e.type) || 'element';
        return el('span', { class: 'bk-select', 'aria-disabled': 'true', title: 'The sandbox does not offer this element' }, ph + ' \u25BE');
      }
    }
  }

  // renderInput is an input block of a modal: its element is read when the
  // modal is submitted (see collectValues).
  function renderInput(b, ctx) {
    const e = b.element || {};
    const id = 'in-' + (b.block_id || Math.random().toString(36).slice(2)) + '-' + (e.action_id || '');
    const box = el('div', { class: 'block block-input', 'data-block-id': b.block_id || '', 'data-action-id': e.action_id || '',
      'data-optional': b.optional ? 'true' : 'false' });
    box.appendChild(el('label', { class: 'input-label', for: id }, plain(b.label),
      b.optional ? el('span', { class: 'input-optional' }, ' (optional)') : null));
    let field;
    switch (e.type) {
      case 'plain_text_input':
        field = e.multiline ? el('textarea', { rows: '4' }) : el('input', { type: 'text' });
        if (e.placeholder) field.placeholder = plain(e.placeholder);
        if (e.initial_value) field.value = e.initial_value;
        if (e.max_length) field.maxLength = e.max_length;
        break;
      case 'static_select':
        field = renderSelect(e, null, null);
        break;
      default:
        field = el('span', { class: 'bk-select', 'aria-disabled': 'true' }, (e.type || 'element') + ' (not offered by the sandbox)');
    }
    field.id = id;
    field.classList.add('input-field');
    field.setAttribute('aria-describedby', id + '-err');
    box.appendChild(field);
    if (b.hint) box.appendChild(el('div', { class: 'input-hint' }, plain(b.hint)));
    box.appendChild(el('div', { class: 'input-error', id: id + '-err', role: 'alert' }));
    return box;
  }

  function renderBlocks(blocks, ctx, scope) {
    const wrap = el('div', { class: 'blocks' });
    for (const b of blocks) {
      if (!b || typeof b !== 'object') continue;
      switch (b.type) {
        case 'section': {
          const sec = el('div', { class: 'block block-section' });
          const main = el('div', { class: 'section-main' });
          if (b.text) main.appendChild(el('div', { class: 'section-text' }, renderTextObject(b.text, ctx)));
          if (Array.isArray(b.fields) && b.fields.length) {
            const grid = el('div', { class: 'section-fields' });
            for (const f of b.fields) grid.appendChild(el('div', { class: 'field' }, renderTextObject(f, ctx)));
            main.appendChild(grid);
          }
          sec.appendChild(main);
          if (b.accessory) sec.appendChild(el('div', { class: 'section-accessory' }, renderElement(b.accessory, ctx, scope)));
          wrap.appendChild(sec);
          break;
        }
        case 'context': {
          const row = el('div', { class: 'block block-context' });
          for (const e of b.elements || []) {
            if (e.type === 'image') row.appendChild(renderImage(imageURL(e), e.alt_text, 'context-image'));
            else row.appendChild(renderTextObject(e, ctx));
          }
          wrap.appendChild(row);
          break;
        }
        case 'divider':
          wrap.appendChild(el('hr', { class: 'block block-divider' }));
          break;
        case 'header':
          wrap.appendChild(el('div', { class: 'block block-header', role: 'heading', 'aria-level': '3' }, renderTextObject(b.text, ctx)));
          break;
        case 'image': {
          const fig = el('figure', { class: 'block block-image' });
          if (b.title) fig.appendChild(el('figcaption', {}, renderTextObject(b.title, ctx)));
          fig.appendChild(renderImage(imageURL(b), b.alt_text, 'block-img'));
          wrap.appendChild(fig);
          break;
        }
        case 'actions': {
          const row = el('div', { class: 'block block-actions' });
          for (const e of b.elements || []) row.appendChild(renderElement(e, ctx, scope));
          wrap.appendChild(row);
          break;
        }
        case 'context_actions': {
          const row = el('div', { class: 'block block-actions block-context-actions' });
          for (const e of b.elements || []) row.appendChild(renderElement(e, ctx, scope));
          wrap.appendChild(row);
          break;
        }
        case 'input':
          wrap.appendChild(renderInput(b, ctx));
          break;
        case 'markdown':
          wrap.appendChild(el('div', { class: 'block block-markdown' }, renderMrkdwn(String(b.text || '').replace(/\*\*/g, '*'), ctx)));
          break;
        case 'rich_text':
          wrap.appendChild(renderRichText(b, ctx));
          break;
        case 'plan':
          wrap.appendChild(renderPlan(b, ctx));
          break;
        case 'task_card':
          wrap.appendChild(renderTaskCard(b, ctx, 'block block-task'));
          break;
        case 'data_visualization':
          wrap.appendChild(renderChart(b));
          break;
        case 'data_table':
          wrap.appendChild(renderDataTable(b, ctx, scope));
          break;
        default:
          wrap.appendChild(el('div', { class: 'block block-unsupported' }, 'This message has a ' + String(b.type) + ' block, which the sandbox does not show.'));
      }
    }
    return wrap;
  }

  // ------------------------------------------- Slack's AI surface blocks

  // A plan: its title and its task cards, in order.
  function renderPlan(b, ctx) {
    const box = el('div', { class: 'block block-plan', role: 'group', 'aria-label': String(b.title || 'Plan') });
    box.appendChild(el('div', { class: 'plan-title' }, String(b.title || '')));
    const list = el('ol', { class: 'plan-tasks' });
    for (const t of b.tasks || []) list.appendChild(renderTaskCard(t, ctx, 'plan-task', 'li'));
    box.appendChild(list);
    return box;
  }

  // The marks of a task card's status, as Slack shows them.
  const TASK_MARKS = { pending: '○', in_progress: '◔', complete: '✓', error: '✕' };
  const TASK_WORDS = { pending: 'pending', in_progress: 'in progress', complete: 'done', error: 'failed' };

  // A task card: its status mark, title, details and sources.
  function renderTaskCard(t, ctx, cls, tag) {
    const status = Object.prototype.hasOwnProperty.call(TASK_MARKS, t.status) ? t.status : 'none';
    const card = el(tag || 'div', { class: cls + ' task task-' + status, 'data-task-id': String(t.task_id || ''), 'data-status': status });
    card.appendChild(el('span', { class: 'task-mark', 'aria-label': TASK_WORDS[status] || 'no status' }, TASK_MARKS[status] || '·'));
    const body = el('div', { class: 'task-body' });
    if (!t.hide_title) body.appendChild(el('div', { class: 'task-title' }, String(t.title || '')));
    for (const part of [t.details, t.output]) {
      if (part && part.type === 'rich_text') body.appendChild(el('div', { class: 'task-details' }, renderRichText(part, ctx)));
    }
    if (Array.isArray(t.sources) && t.sources.length) {
      const src = el('div', { class: 'task-sources' });
      for (const s of t.sources) {
        const url = safeURL(s.url || '');
        src.appendChild(url ? el('a', { href: url, target: '_blank', rel: 'noopener noreferrer' }, String(s.text || url))
          : el('span', {}, String(s.text || s.url || '')));
      }
      body.appendChild(src);
    }
    card.appendChild(body);
    return card;
  }

  // The series' colours: told apart by colour-blind eyes (Okabe–Ito), the
  // first two the PNG charts' human and AI.
  const CHART_COLORS = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9'];
  const SVG = 'http://www.w3.org/2000/svg';

  // svg makes an SVG element, its attributes set one by one.
  function svg(tag, attrs, ...children) {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
    for (const c of children) e.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
    return e;
  }

  // countAxis chooses the count axis as Slack draws it: a round step (1, 2
  // or 5 times a power of ten, whole numbers) giving at most five intervals
  // from 0 to the first step at or above the highest value.
  function countAxis(highest) {
    const raw = Math.max(highest, 1) / 5;
    const mag = Math.pow(10, Math.floor(Math.log10(raw)));
    const step = Math.max(1, [1, 2, 5, 10].map((m) => m * mag).find((st) => st >= raw));
    return { step, top: Math.max(step, Math.ceil(highest / step) * step) };
  }

  // A data_visualization block: a bar, line or area chart drawn in SVG (a
  // pie as bars of its segments), its legend, and its numbers in a table
  // for screen readers.
  function renderChart(b) {
    const chart = b.chart || {};
    const type = String(chart.type || '');
    let cats = (chart.axis_config && chart.axis_config.categories) || [];
    let series = (chart.series || []).map((s) => ({ name: String(s.name || ''), values: cats.map((c) => {
      const p = (s.data || []).find((d) => d.label === c);
      return p ? Number(p.value) || 0 : 0;
    }) }));
    if (type === 'pie') {
      cats = (chart.segments || []).map((g) => String(g.label || ''));
      series = [{ name: 'Share', values: (chart.segments || []).map((g) => Number(g.value) || 0) }];
    }
    const fig = el('figure', { class: 'block block-chart', 'data-chart-type': type, 'data-points': String(cats.length), 'data-series': String(series.length) });
    fig.appendChild(el('figcaption', { class: 'chart-title' }, String(b.title || '')));
    const W = 520, H = 220, left = 48, right = 12, top = 12, bottom = 40;
    const axis = countAxis(Math.max(0, ...series.flatMap((s) => s.values)));
    const max = axis.top;
    const y = (v) => top + (H - top - bottom) * (1 - v / max);
    const step = (W - left - right) / Math.max(cats.length, 1);
    const x = (i) => left + step * (i + 0.5);
    const pic = svg('svg', { class: 'chart-svg', viewBox: '0 0 ' + W + ' ' + H, role: 'img', 'aria-label': String(b.title || 'chart') });
    for (let v = 0; v <= max; v += axis.step) {
      pic.appendChild(svg('line', { x1: left, x2: W - right, y1: y(v), y2: y(v), class: 'chart-grid' }));
      pic.appendChild(svg('text', { x: left - 6, y: y(v) + 4, 'text-anchor': 'end', class: 'chart-axis' }, Math.round(v).toLocaleString('en-US')));
    }
    const every = Math.ceil(cats.length / 10);
    cats.forEach((c, i) => {
      if (i % every === 0) pic.appendChild(svg('text', { x: x(i), y: H - bottom + 16, 'text-anchor': 'middle', class: 'chart-axis' }, c));
    });
    series.forEach((s, k) => {
      const color = CHART_COLORS[k % CHART_COLORS.length];
      if (type === 'line' || type === 'area') {
        const pts = s.values.map((v, i) => x(i) + ',' + y(v)).join(' ');
        if (type === 'area') pic.appendChild(svg('polygon', { points: x(0) + ',' + y(0) + ' ' + pts + ' ' + x(s.values.length - 1) + ',' + y(0), fill: color, 'fill-opacity': '0.2', class: 'chart-area' }));
        pic.appendChild(svg('polyline', { points: pts, fill: 'none', stroke: color, 'stroke-width': 2, class: 'chart-line' }));
        s.values.forEach((v, i) => pic.appendChild(svg('circle', { cx: x(i), cy: y(v), r: 3, fill: color, class: 'chart-point' }, svg('title', {}, cats[i] + ': ' + v.toLocaleString('en-US')))));
      } else {
        const w = step * 0.8 / series.length;
        s.values.forEach((v, i) => pic.appendChild(svg('rect', { x: x(i) - step * 0.4 + w * k, y: y(v), width: Math.max(w - 1, 1), height: y(0) - y(v), fill: color, class: 'chart-bar' },
          svg('title', {}, s.name + ', ' + cats[i] + ': ' + v.toLocaleString('en-US')))));
      }
    });
    fig.appendChild(pic);
    const legend = el('div', { class: 'chart-legend' });
    series.forEach((s, k) => legend.appendChild(el('span', { class: 'chart-key' },
      el('span', { class: 'chart-swatch chart-color-' + (k % CHART_COLORS.length) }), s.name)));
    fig.appendChild(legend);
    // The numbers, for screen readers (hidden from the eye).
    const table = el('table', { class: 'visually-hidden' });
    table.appendChild(el('tr', {}, el('th', {}, ''), ...series.map((s) => el('th', {}, s.name))));
    cats.forEach((c, i) => table.appendChild(el('tr', {}, el('th', {}, c), ...series.map((s) => el('td', {}, s.values[i].toLocaleString('en-US'))))));
    fig.appendChild(table);
    return fig;
  }

  // A data_table block: its caption, the header row and the rows; a
  // number's text (or value) right-aligned, a button as a button. Rows
  // beyond page_size wait behind "Show more".
  function renderDataTable(b, ctx, scope) {
    const rows = Array.isArray(b.rows) ? b.rows : [];
    const box = el('div', { class: 'block block-data-table' });
    const table = el('table', { class: 'data-table' });
    table.appendChild(el('caption', {}, String(b.caption || '')));
    const page = Number(b.page_size) > 0 ? Number(b.page_size) : rows.length;
    const cell = (c, header) => {
      const tag = header ? 'th' : 'td';
      switch (c && c.type) {
        case 'raw_number':
          return el(tag, { class: 'num' }, c.text ? String(c.text) : Number(c.value).toLocaleString('en-US'));
        case 'rich_text':
          return el(tag, {}, renderRichText(c, ctx));
        case 'action_cell':
          return el(tag, { class: 'action' }, c.element ? renderButton(c.element, scope) : '');
        default:
          return el(tag, {}, String((c && c.text) || ''));
      }
    };
    rows.forEach((r, i) => {
      const tr = el('tr', { class: i > page ? 'data-row hidden-row' : 'data-row' });
      for (const c of r || []) tr.appendChild(cell(c, i === 0));
      table.appendChild(tr);
    });
    box.appendChild(table);
    if (rows.length - 1 > page) {
      box.appendChild(el('button', { class: 'btn data-table-more', type: 'button', onclick: (ev) => {
        table.querySelectorAll('.hidden-row').forEach((r) => r.classList.remove('hidden-row'));
        ev.target.remove();
      } }, 'Show all ' + (rows.length - 1) + ' rows'));
    }
    return box;
  }

  // Rich text (what people type). slacktest fills its text elements from
  // the message text, entities included, so text elements are decoded too.
  function renderRichText(b, ctx) {
    const box = el('div', { class: 'block block-rich' });
    for (const part of b.elements || []) {
      switch (part.type) {
        case 'rich_text_section': {
          const p = el('span', { class: 'rich-section' });
          richInline(part.elements, p, ctx);
          box.appendChild(p);
          break;
        }
        case 'rich_text_preformatted': {
          const pre = el('pre', { class: 'pre' });
          richInline(part.elements, pre, ctx);
          box.appendChild(pre);
          break;
        }
        case 'rich_text_quote': {
          const q = el('blockquote', { class: 'quote' });
          richInline(part.elements, q, ctx);
          box.appendChild(q);
          break;
        }
        case 'rich_text_list': {
          const list = el(part.style === 'ordered' ? 'ol' : 'ul', { class: 'rich-list' });
          for (const item of part.elements || []) {
            const li = el('li');
            richInline(item.elements, li, ctx);
            list.appendChild(li);
          }
          box.appendChild(list);
          break;
        }
      }
    }
    return box;
  }

  function richInline(elements, parent, ctx) {
    for (const e of elements || []) {
      let node;
      switch (e.type) {
        case 'text': {
          const lines = decode(e.text || '').split('\n');
          node = document.createDocumentFragment();
          lines.forEach((l, i) => {
            if (i > 0) node.appendChild(el('br'));
            node.appendChild(document.createTextNode(l));
          });
          break;
        }
        case 'link': {
          const url = safeURL(e.url || '');
          node = url ? el('a', { href: url, target: '_blank', rel: 'noopener noreferrer' }, e.text || url)
            : document.createTextNode(e.text || e.url || '');
          break;
        }
        case 'user':
          node = el('span', { class: 'mention' }, '@' + (ctx.userName(e.user_id) || e.user_id));
          break;
        case 'channel':
          node = el('span', { class: 'mention mention-channel' }, '#' + (ctx.channelName(e.channel_id) || e.channel_id));
          break;
        case 'broadcast':
          node = el('span', { class: 'mention mention-broadcast' }, '@' + (e.range || 'here'));
          break;
        case 'emoji': {
          node = emojiNode(e.name);
          if (!node && /^[0-9a-f-]+$/i.test(e.unicode || '')) {
            try {
              node = el('span', { class: 'emoji', title: ':' + e.name + ':' },
                String.fromCodePoint(...e.unicode.split('-').map((h) => parseInt(h, 16))));
            } catch (_) { node = null; }
          }
          if (!node) node = document.createTextNode(':' + e.name + ':');
          break;
        }
        default:
          node = document.createTextNode(e.text || '');
      }
      const st = e.style || {};
      if (st.code) node = el('code', { class: 'code' }, node);
      if (st.strike) node = el('del', {}, node);
      if (st.italic) node = el('em', {}, node);
      if (st.bold) node = el('strong', {}, node);
      parent.appendChild(node);
    }
  }

  // ------------------------------------------------------------ app state

  // APP is app.current while the app (its Home or Messages tab) is shown.
  const APP = '@app';

  const app = {
    state: null,
    tab: 'home', // the app's tab: 'home' | 'messages'
    modalReturn: null, // what had the focus before a modal opened
    menuAnchor: null, // the button of the open menu
    users: new Map(),
    groups: new Map(),
    channels: new Map(),
    current: null, // channel id, or APP
    thread: null, // parent ts of the open thread
    pane: false, // the open thread is the assistant pane's, in the DM with the app, beside the channel shown
    panel: null, // 'thread' | 'help' | null
    dismissed: new Set(JSON.parse(sessionStorage.getItem('slackweb.dismissed') || '[]')),
    seen: JSON.parse(sessionStorage.getItem('slackweb.seen') || '{}'),
    cache: new Map(), // message node cache: key -> {sig, node}
    usersSig: '',
    stickBottom: { messages: true, 'thread-messages': true },
    prompts: null, // the assistant pane's prompts node: {sig, node}
    suggestIndex: 0,
    // as is the person the page acts as, '' for its default (the first of
    // state.people); events is the open event stream.
    as: sessionStorage.getItem('slackweb.as') || '',
    events: null,
    // attached are the files chosen for the next message of each message
    // box, by its prefix ('composer', 'thread').
    attached: { composer: [], thread: [] },
  };

  // The person the page acts as is named on every request: a header on
  // fetch, a query parameter where no header can go (the event stream,
  // images). Nothing is named for the default person.
  function actingHeaders() { return app.as ? { 'X-Slackweb-As': app.as } : {}; }
  function actingQuery() { return app.as ? '?as=' + encodeURIComponent(app.as) : ''; }

  const ctx = {
    userName: (id) => (app.users.get(id) || {}).name,
    groupHandle: (id) => (app.groups.get(id) || {}).handle,
    channelName: (id) => (app.channels.get(id) || {}).name,
  };

  // placeName names a conversation: "#general", or the bot for its DM.
  function placeName(ch) { return ch.im ? botName() : '#' + ch.name; }

  function meName() { return ctx.userName(app.state && app.state.me) || 'you'; }

  // standingBadge marks a guest of the workspace or a person of another
  // organisation next to their name, as Slack does; null for a member.
  function standingBadge(u) {
    if (!u) return null;
    if (u.team) return el('span', { class: 'standing-badge external', title: 'Of another organisation (' + u.team + ')' }, 'External');
    if (u.guest) return el('span', { class: 'standing-badge guest', title: u.guest === 'single' ? 'A single-channel guest of this workspace' : 'A guest of this workspace' }, 'Guest');
    return null;
  }

  // sharedMark marks a channel shared with another organisation.
  function sharedMark(ch) {
    return ch && ch.shared ? el('span', { class: 'shared-mark', title: 'Shared with another organisation (Slack Connect)' }, 'shared') : null;
  }
  function botName() { return ctx.userName(app.state && app.state.bot) || 'bot'; }

  // ------------------------------------------------------------- messages

  function messageNode(m, where) {
    const sig = JSON.stringify(m) + '|' + where + '|' + app.usersSig + '|' + app.dismissed.has(m.ts);
    const key = where + ':' + m.channel + ':' + m.ts;
    const hit = app.cache.get(key);
    if (hit && hit.sig === sig) return hit.node;
    const node = buildMessage(m, where);
    app.cache.set(key, { sig, node });
    return node;
  }

  function buildMessage(m, where) {
    // The message an assistant thread starts with is the app's, though
    // Slack posts it without a bot_id.
    const isBot = !!m.bot_id || !!m.assistant;
    const user = app.users.get(m.user) || {};
    const name = m.username || user.name || m.user || 'someone';
    const t = timeOf(m.ts);
    const cls = 'msg' + (isBot ? ' msg-bot' : '') + (m.ephemeral ? ' msg-ephemeral' : '');
    const row = el('div', { class: cls, 'data-ts': m.ts, 'data-user': m.user || '', role: 'article', 'aria-label': name + ' at ' + t.short });

    const avatar = el('div', { class: 'avatar' + (isBot ? ' avatar-bot' : ''), 'aria-hidden': 'true' });
    if (!isBot) { avatar.textContent = initials(name); avatar.style.background = colorOf(m.user || name); }
    row.appendChild(avatar);

    const body = el('div', { class: 'msg-body' });
    const meta = el('div', { class: 'msg-meta' },
      el('span', { class: 'msg-author' }, name),
      isBot ? el('span', { class: 'app-badge' }, 'APP') : standingBadge(user),
      el('time', { class: 'msg-time', datetime: t.iso, title: t.long }, t.short));
    body.appendChild(meta);

    const content = el('div', { class: 'msg-content' });
    if (m.markdown) {
      // A streamed message: its markdown text, then the blocks its stop
      // added under it.
      content.appendChild(el('div', { class: 'msg-text' }, renderMrkdwn(markdownToMrkdwn(m.text), ctx)));
      if (m.streaming) content.appendChild(el('span', { class: 'streaming' }, '▍'));
      if (Array.isArray(m.blocks) && m.blocks.length) content.appendChild(renderBlocks(m.blocks, ctx, { channel: m.channel, ts: m.ts }));
    } else if (Array.isArray(m.blocks) && m.blocks.length) {
      content.appendChild(renderBlocks(m.blocks, ctx, { channel: m.channel, ts: m.ts }));
    } else {
      content.appendChild(el('div', { class: 'msg-text' }, renderMrkdwn(m.text, ctx)));
    }
    if (m.edited) {
      // Slack writes "(edited)" after the last text of the message.
      let target = content;
      for (;;) {
        const last = target.lastElementChild;
        if (!last || !last.matches('.msg-text, .blocks, .block-section, .section-main, .section-text, .text-object, ' +
          '.line-group, .quote, .block-context, .block-rich, .rich-section')) break;
        target = last;
      }
      target.appendChild(el('span', { class: 'edited', title: 'Edited with chat.update' }, '(edited)'));
    }
    body.appendChild(content);
    if (m.files && m.files.length) body.appendChild(renderFiles(m.files));
    if (m.unfurls && m.unfurls.length) body.appendChild(renderUnfurls(m));

    if (m.ephemeral) {
      body.appendChild(el('div', { class: 'ephemeral-note' },
        el('span', { class: 'eye', 'aria-hidden': 'true' }, '\u{1F441}'),
        ' Only visible to you ',
        el('button', { type: 'button', class: 'link-btn', onclick: () => dismiss(m.ts) }, 'Dismiss message')));
    }

    if (m.reactions && m.reactions.length) {
      const rs = el('div', { class: 'reactions', 'aria-label': 'Reactions' });
      for (const r of m.reactions) {
        const pill = el('span', { class: 'reaction', 'data-name': r, title: 'Reacted with :' + r + ':' });
        pill.appendChild(emojiNode(r) || document.createTextNode(':' + r + ':'));
        pill.appendChild(el('span', { class: 'reaction-count' }, '1'));
        rs.appendChild(pill);
      }
      body.appendChild(rs);
    }

    if (where === 'channel' && !m.ephemeral && m.reply_count > 0) {
      const last = m.replies && m.replies.length ? timeOf(m.replies[m.replies.length - 1].ts).short : '';
      const faces = el('span', { class: 'thread-faces', 'aria-hidden': 'true' });
      const seenUsers = [];
      for (const r of m.replies || []) if (!seenUsers.includes(r.user)) seenUsers.push(r.user);
      for (const u of seenUsers.slice(0, 4)) {
        const f = el('span', { class: 'face' + (u === (app.state && app.state.bot) ? ' face-bot' : '') });
        if (u !== (app.state && app.state.bot)) { f.textContent = initials(ctx.userName(u) || u); f.style.background = colorOf(u); }
        faces.appendChild(f);
      }
      body.appendChild(el('button', { type: 'button', class: 'thread-summary', onclick: () => openThread(m.ts) },
        faces,
        el('span', { class: 'thread-count' }, m.reply_count === 1 ? '1 reply' : m.reply_count + ' replies'),
        last ? el('span', { class: 'thread-last' }, 'Last reply ' + last) : null,
        el('span', { class: 'thread-view' }, 'View thread')));
    }
    if (where === 'channel' && m.status) body.appendChild(statusNode(m.status));
    row.appendChild(body);

    if (!m.ephemeral) {
      const bar = el('div', { class: 'msg-actions' });
      if (where === 'channel') {
        bar.appendChild(el('button', { type: 'button', class: 'msg-reply', 'aria-label': 'Reply in thread', title: 'Reply in thread', onclick: () => openThread(m.ts) },
          '\u{1F4AC} Reply'));
      }
      const choices = app.state.reaction_choices || [];
      if (choices.length) {
        const add = el('button', { type: 'button', class: 'msg-react', 'aria-label': 'Add reaction', title: 'Add reaction',
          'aria-haspopup': 'menu', 'aria-expanded': 'false' }, '\u{1F642}+');
        add.addEventListener('click', () => openMenu(add, choices.map((c) => ({
          label: ((EMOJI[c.name] || '') + ' :' + c.name + ':').trim(), hint: c.description || '',
          onselect: () => post('api/react', { channel: m.channel, ts: m.ts, name: c.name }),
        }))));
        bar.appendChild(add);
      }
      const more = el('button', { type: 'button', class: 'msg-more', 'aria-label': 'More actions', title: 'More actions',
        'aria-haspopup': 'menu', 'aria-expanded': 'false' }, '\u22EE');
      more.addEventListener('click', () => openMenu(more, shortcutItems(m)));
      bar.appendChild(more);
      row.appendChild(bar);
    }
    return row;
  }

  // statusNode is the assistant status under a thread ("docsbot is
  // working…"), shown while the bot keeps it set.
  function statusNode(status) {
    return el('div', { class: 'thread-status', role: 'status' },
      el('span', { class: 'status-dots', 'aria-hidden': 'true' }, el('span'), el('span'), el('span')),
      el('span', { class: 'status-text' }, botName() + ' ' + status));
  }

  // renderUnfurls shows the app's unfurls of a message's links under it,
  // each with a bar on its left and the link's site above its blocks, as
  // Slack does; their buttons act on the message (its channel and ts).
  function renderUnfurls(m) {
    const box = el('div', { class: 'unfurls' });
    for (const u of m.unfurls) {
      const url = safeURL(u.url);
      const site = url ? new URL(url).host : String(u.url);
      const card = el('div', { class: 'unfurl', 'data-url': u.url, role: 'group', 'aria-label': botName() + '\u2019s preview of ' + u.url },
        el('div', { class: 'unfurl-source' },
          el('span', { class: 'unfurl-app' }, botName()),
          url ? el('a', { href: url, target: '_blank', rel: 'noopener noreferrer', title: url }, site) : site));
      if (Array.isArray(u.blocks) && u.blocks.length) card.appendChild(renderBlocks(u.blocks, ctx, { channel: m.channel, ts: m.ts }));
      box.appendChild(card);
    }
    return box;
  }

  // renderFiles shows the files shared with a message (the bot's, or
  // those its person attached): images inline, anything else as a download
  // link. Their content comes from the page itself.
  function renderFiles(files) {
    const box = el('div', { class: 'files' });
    for (const f of files) {
      const label = f.title || f.name;
      if (f.image) {
        box.appendChild(el('figure', { class: 'file file-image' },
          el('a', { href: f.url, target: '_blank', rel: 'noopener', title: 'Open ' + f.name },
            keepBottom(el('img', { src: f.url, alt: f.alt || label, loading: 'lazy' }))),
          el('figcaption', {}, label)));
      } else {
        box.appendChild(el('a', { class: 'file file-download', href: f.url, download: f.name, title: 'Download ' + f.name },
          el('span', { class: 'file-icon', 'aria-hidden': 'true' }, (/\.([a-z0-9]{1,4})$/i.exec(f.name) || [, 'file'])[1].toUpperCase()),
          el('span', { class: 'file-name' }, label),
          el('span', { class: 'file-size' }, sizeOf(f.size))));
      }
    }
    return box;
  }

  function sizeOf(n) {
    if (n < 1024) return n + ' B';
    if (n < 1024 * 1024) return (n / 1024).toFixed(1) + ' KB';
    return (n / 1024 / 1024).toFixed(1) + ' MB';
  }

  // shortcutItems are the "More actions" of a message: the app's message
  // shortcuts.
  function shortcutItems(m) {
    const list = app.state.shortcuts || [];
    if (!list.length) return [{ label: botName() + ' has no message shortcuts', disabled: true }];
    return list.map((sc) => ({
      label: sc.name, hint: botName(), title: sc.description || '',
      onselect: () => post('api/shortcut', { channel: m.channel, ts: m.ts, callback_id: sc.callback_id }),
    }));
  }

  function dismiss(ts) {
    app.dismissed.add(ts);
    sessionStorage.setItem('slackweb.dismissed', JSON.stringify([...app.dismissed]));
    render();
  }

  // ---------------------------------------------------------------- render

  function apply(state) {
    app.state = state;
    const sig = JSON.stringify(state.users) + JSON.stringify(state.groups || []) + JSON.stringify(state.channels.map((c) => [c.id, c.name]));
    if (sig !== app.usersSig) { app.usersSig = sig; app.cache.clear(); }
    app.users = new Map(state.users.map((u) => [u.id, u]));
    app.groups = new Map((state.groups || []).map((g) => [g.id, g]));
    app.channels = new Map(state.channels.map((c) => [c.id, c]));
    if (!app.current || (app.current !== APP && !app.channels.has(app.current))) {
      let hash = '';
      try {
        hash = decodeURIComponent(location.hash.slice(1));
      } catch (_) {
        // A malformed address (#%E0%A4%A): open the first channel instead.
      }
      const fromHash = hash.split('/');
      if (fromHash[0] === APP) {
        // #@app/home, #@app/messages, #@app/messages/<thread ts>
        app.current = APP;
        app.tab = fromHash[1] === 'messages' ? 'messages' : 'home';
        if (fromHash[2] && !app.thread) { app.thread = fromHash[2]; app.panel = 'thread'; }
        // Loading the page on the app's tab opens it, as a visit does.
        if (app.tab === 'home') post('api/home', {});
        else if (!state.dm) post('api/dm', {});
      } else {
        const first = state.channels.find((c) => !c.im);
        app.current = app.channels.has(fromHash[0]) ? fromHash[0] : (first && first.id);
        if (fromHash[1] && !app.thread) { app.thread = fromHash[1]; app.panel = 'thread'; }
      }
    }
    render();
  }

  // currentChannel is the conversation shown: a channel, or in the app's
  // Messages tab the direct message with the bot (empty until opened).
  function currentChannel() {
    if (app.current !== APP) return app.channels.get(app.current);
    return app.channels.get(app.state.dm) ||
      { id: '', name: botName(), im: app.state.me, bot_member: true, private: true, messages: [] };
  }

  // threadChannel is the channel of the open thread: the one shown, or the
  // DM with the app for the assistant pane, which sits beside it as Slack's.
  function threadChannel() {
    if (!app.pane) return currentChannel();
    return app.channels.get(app.state.dm) || { id: app.state.dm || '', name: botName(), im: app.state.me, messages: [] };
  }

  function render() {
    const st = app.state;
    if (!st) return;
    $('ws-name').textContent = st.workspace;
    $('me-name').textContent = meName();
    renderPeople();
    $('bot-name').textContent = botName();
    const up = st.connections > 0;
    $('bot-presence').className = 'presence' + (up ? ' on' : '');
    $('bot-presence-text').textContent = up ? ' (connected)' : ' (not connected)';
    $('bot-status').textContent = up ? '' : botName() + ' is not connected';

    renderSidebar();
    renderModal();
    const ch = currentChannel();
    if (!ch) return;
    const inApp = app.current === APP;
    const home = inApp && app.tab === 'home';
    $('app-tabs').hidden = !inApp;
    for (const [tab, id] of [['home', 'tab-home'], ['messages', 'tab-messages']]) {
      $(id).setAttribute('aria-selected', String(inApp && app.tab === tab));
      $(id).tabIndex = app.tab === tab ? 0 : -1;
    }
    $('messages').hidden = home;
    $('composer').hidden = home;
    $('home').hidden = !home;
    const where = inApp ? botName() : '#' + ch.name;
    document.title = (inApp ? botName() + (home ? ' \u2013 Home' : ' \u2013 Messages') : '#' + ch.name) + ' \u2013 ' + st.workspace;
    $('channel-title').replaceChildren(inApp ? botName() : (ch.private ? '\u{1F512} ' : '# ') + ch.name, inApp ? '' : sharedMark(ch) || '');
    $('channel-title').classList.toggle('app-title', inApp);
    $('composer-input').placeholder = 'Message ' + where;
    $('composer-label').textContent = 'Message ' + where;
    $('messages').setAttribute('aria-label', 'Messages in ' + where);

    const eph = st.ephemerals.filter((m) => m.channel === ch.id && !app.dismissed.has(m.ts));
    if (home) {
      renderHome();
    } else {
      const top = ch.messages.concat(eph.filter((m) => !m.thread_ts)).sort((a, b) => tsNumber(a.ts) - tsNumber(b.ts));
      fill('messages', [introNode(ch)].concat(top.map((m) => messageNode(m, 'channel'))));
      if (ch.messages.length) {
        app.seen[ch.id] = ch.messages[ch.messages.length - 1].ts;
        sessionStorage.setItem('slackweb.seen', JSON.stringify(app.seen));
      }
    }

    const tch = threadChannel();
    renderPanels(tch, tch === ch ? eph : st.ephemerals.filter((m) => m.channel === tch.id && !app.dismissed.has(m.ts)));
    updateHash();
  }

  // renderHome shows the Home tab the bot last published for the person.
  function renderHome() {
    const box = $('home');
    const v = app.state.home;
    const sig = v ? v.id + v.hash + app.usersSig : 'none';
    if (box.dataset.sig === sig) return;
    box.dataset.sig = sig;
    if (!v) {
      box.replaceChildren(el('p', { class: 'empty home-empty' }, botName() + ' has not published a Home tab for you yet.'));
      return;
    }
    box.replaceChildren(el('div', { class: 'home-view', 'data-view-id': v.id }, renderBlocks(v.blocks || [], ctx, { view: v.id })));
  }

  // ------------------------------------------------------------- modals

  // renderModal shows the top of the person's modal stack, kept while its
  // view is unchanged so what they typed stays; its errors are refreshed.
  function renderModal() {
    const root = $('modal-root');
    const list = app.state.modals || [];
    const v = list.length ? list[list.length - 1] : null;
    if (!v) {
      if (!root.hidden) {
        root.hidden = true;
        root.replaceChildren();
        root.dataset.sig = '';
        document.body.classList.remove('with-modal');
        $('app').inert = false;
        if (app.modalReturn && document.contains(app.modalReturn)) app.modalReturn.focus();
        app.modalReturn = null;
      }
      return;
    }
    const sig = v.id + v.hash + app.usersSig;
    if (root.dataset.sig !== sig) {
      const opening = root.hidden;
      if (opening) app.modalReturn = document.activeElement;
      root.replaceChildren(buildModal(v));
      root.dataset.sig = sig;
      root.hidden = false;
      document.body.classList.add('with-modal');
      $('app').inert = true; // the page behind a modal takes no focus or clicks
      const first = root.querySelector('.input-field, .modal-body button, .modal-body a, .modal-submit, .modal-close');
      if (first) first.focus();
    }
    showErrors(root, v.errors || {});
  }

  function buildModal(v) {
    const form = el('form', { class: 'modal', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'modal-title', 'data-view-id': v.id, novalidate: true });
    form.appendChild(el('header', { class: 'modal-header' },
      el('span', { class: 'modal-icon avatar-bot', 'aria-hidden': 'true' }),
      el('h2', { class: 'modal-title', id: 'modal-title' }, v.title || botName()),
      el('button', { type: 'button', class: 'icon-btn modal-x', 'aria-label': 'Close', onclick: () => closeModal(v.id) }, '\u2715')));
    form.appendChild(el('div', { class: 'modal-body' }, renderBlocks(v.blocks || [], ctx, { view: v.id })));
    form.appendChild(el('div', { class: 'modal-error', role: 'alert' }));
    form.appendChild(el('footer', { class: 'modal-footer' },
      el('button', { type: 'button', class: 'modal-btn modal-close', onclick: () => closeModal(v.id) }, v.close || 'Cancel'),
      v.submit ? el('button', { type: 'submit', class: 'modal-btn modal-submit' }, v.submit) : null));
    form.addEventListener('submit', (e) => { e.preventDefault(); submitModal(v.id, form); });
    return form;
  }

  // showErrors writes errors (by block_id) under their input blocks.
  function showErrors(root, errors) {
    for (const box of root.querySelectorAll('.block-input')) {
      const msg = errors[box.dataset.blockId] || box.dataset.localError || '';
      box.querySelector('.input-error').textContent = msg;
      box.classList.toggle('has-error', msg !== '');
    }
  }

  // collectValues reads the modal's input blocks as view_submission values;
  // it marks required inputs left empty, as Slack does before sending.
  function collectValues(form) {
    const values = {};
    let missing = false;
    for (const box of form.querySelectorAll('.block-input')) {
      const field = box.querySelector('.input-field');
      const value = field && 'value' in field ? field.value : '';
      box.dataset.localError = '';
      if (!value.trim() && box.dataset.optional !== 'true') {
        box.dataset.localError = 'Please complete this required field.';
        missing = true;
        continue;
      }
      if (!box.dataset.blockId || !box.dataset.actionId || !value) continue;
      (values[box.dataset.blockId] = values[box.dataset.blockId] || {})[box.dataset.actionId] = value;
    }
    return missing ? null : values;
  }

  async function submitModal(viewId, form) {
    const values = collectValues(form);
    const v = (app.state.modals || []).find((x) => x.id === viewId) || {};
    showErrors(form, v.errors || {});
    if (!values) return;
    const btn = form.querySelector('.modal-submit');
    if (btn) btn.disabled = true;
    const res = await post('api/view/submit', { view_id: viewId, values });
    if (btn && document.contains(btn)) btn.disabled = false;
    if (res.errors && document.contains(form)) showErrors(form, res.errors);
  }

  function closeModal(viewId) { post('api/view/close', { view_id: viewId }); }

  // renderPeople shows whom the page can act as, the acting person pressed:
  // nothing with one person.
  function renderPeople() {
    const people = app.state.people || [];
    const box = $('people');
    box.hidden = people.length < 2;
    const sig = JSON.stringify(people) + app.state.me + app.usersSig;
    if (box.hidden || box.dataset.sig === sig) return;
    box.dataset.sig = sig;
    $('people-list').replaceChildren(...people.map((p) => {
      const face = el('span', { class: 'person-face', 'aria-hidden': 'true' }, initials(p.name));
      face.style.background = colorOf(p.id);
      return el('button', { type: 'button', class: 'person-btn', 'data-person': p.id, 'aria-pressed': String(p.id === app.state.me),
        title: 'Use the workspace as ' + p.name + ' (' + p.about + ')', onclick: () => actAs(p.id) },
      face, el('span', { class: 'person-name' }, p.name), el('span', { class: 'person-about' }, p.about));
    }));
  }

  // actAs makes the page act as person id from now on: its event stream
  // is theirs, and so is every request. The page shows their channels,
  // DM, Home and modals once the stream sends their state.
  function actAs(id) {
    const people = app.state.people || [];
    const as = people.length && people[0].id === id ? '' : id;
    if (as === app.as) return;
    app.as = as;
    if (as) sessionStorage.setItem('slackweb.as', as); else sessionStorage.removeItem('slackweb.as');
    closeMenu();
    if (app.panel === 'thread') { app.panel = null; app.thread = null; app.pane = false; }
    $('composer-error').textContent = '';
    $('thread-error').textContent = '';
    connect();
    // Being on the app's tab as someone else is a visit of theirs.
    if (app.current === APP) post(app.tab === 'home' ? 'api/home' : 'api/dm', {});
  }

  function renderSidebar() {
    const list = $('channel-list');
    const items = [];
    for (const c of app.state.channels) {
      if (c.im) continue;
      const latest = c.messages.length ? c.messages[c.messages.length - 1].ts : '';
      const unread = c.id !== app.current && latest && tsNumber(latest) > tsNumber(app.seen[c.id] || '0');
      const btn = el('button', {
        type: 'button', class: 'channel-btn' + (c.id === app.current ? ' active' : '') + (unread ? ' unread' : ''),
        'aria-current': c.id === app.current ? 'page' : false, 'data-channel': c.id,
        onclick: () => switchChannel(c.id),
      }, el('span', { class: 'hash', 'aria-hidden': 'true' }, c.private ? '\u{1F512}' : '#'), c.name, sharedMark(c),
      unread ? el('span', { class: 'visually-hidden' }, ' (new messages)') : null);
      items.push(el('li', {}, btn));
    }
    const sig = JSON.stringify(app.state.channels.map((c) => [c.id, !!c.shared])) + app.current +
      items.map((li) => li.firstChild.className).join();
    if (list.dataset.sig !== sig) {
      list.replaceChildren(...items);
      list.dataset.sig = sig;
    }
    const dm = app.channels.get(app.state.dm);
    const latest = dm && dm.messages.length ? dm.messages[dm.messages.length - 1].ts : '';
    const inApp = app.current === APP;
    const unread = !(inApp && app.tab === 'messages') && latest && tsNumber(latest) > tsNumber(app.seen[dm.id] || '0');
    const btn = $('app-btn');
    btn.className = 'channel-btn app-btn' + (inApp ? ' active' : '') + (unread ? ' unread' : '');
    if (inApp) btn.setAttribute('aria-current', 'page'); else btn.removeAttribute('aria-current');
    $('app-unread').textContent = unread ? ' (new messages)' : '';
  }

  function renderPanels(ch, eph) {
    const threadPane = $('thread');
    const helpPane = $('help');
    threadPane.hidden = app.panel !== 'thread';
    helpPane.hidden = app.panel !== 'help';
    $('help-btn').setAttribute('aria-expanded', String(app.panel === 'help'));
    document.body.classList.toggle('with-panel', app.panel !== null);
    if (app.panel === 'help') renderHelp();
    if (app.panel !== 'thread') return;
    const parent = ch.messages.find((m) => m.ts === app.thread);
    if (!parent) {
      $('thread-title').firstChild.textContent = 'Thread ';
      fill('thread-messages', [el('p', { class: 'empty' }, 'This thread is not in ' + placeName(ch) + '.')]);
      return;
    }
    // An assistant pane's thread is headed by the title the app gave it.
    $('thread-title').firstChild.textContent = parent.assistant ? (parent.title ? decode(parent.title) : 'New chat') + ' ' : 'Thread ';
    $('thread-sub').textContent = parent.assistant ? botName() + ' \u00b7 assistant' : placeName(ch);
    $('thread-hint').textContent = parent.assistant ? 'Questions here go to ' + botName() : "Replies in a job's thread go to the agent";
    const replies = (parent.replies || []).concat(eph.filter((m) => m.thread_ts === parent.ts))
      .sort((a, b) => tsNumber(a.ts) - tsNumber(b.ts));
    const nodes = [messageNode(parent, 'thread-parent')];
    nodes.push(el('div', { class: 'thread-divider', role: 'separator' },
      el('span', {}, parent.reply_count === 1 ? '1 reply' : (parent.reply_count || 0) + ' replies')));
    for (const r of replies) nodes.push(messageNode(r, 'thread'));
    if (parent.status) nodes.push(statusNode(parent.status));
    if (parent.assistant && (app.state.prompts || []).length && replies.every((r) => r.bot_id)) nodes.push(promptsNode(ch.id, parent.ts));
    fill('thread-messages', nodes);
  }

  // promptsNode is the app's suggested prompts in an assistant thread the
  // person has not written in yet: each sends its message in the thread.
  function promptsNode(channel, ts) {
    const st = app.state;
    const sig = channel + ts + JSON.stringify(st.prompts) + st.prompts_title;
    if (app.prompts && app.prompts.sig === sig) return app.prompts.node;
    const box = el('section', { class: 'prompts', 'aria-label': st.prompts_title || 'Suggested prompts' },
      el('div', { class: 'prompts-title' }, st.prompts_title || 'Suggested prompts'));
    const chips = el('div', { class: 'chips' });
    for (const p of st.prompts) {
      chips.appendChild(el('button', { type: 'button', class: 'chip prompt-chip', title: p.message,
        onclick: () => sendPrompt(channel, ts, p.message) }, p.title));
    }
    box.appendChild(chips);
    app.prompts = { sig, node: box };
    return box;
  }

  // fill replaces a list's children, keeping it scrolled to the bottom when
  // it was there.
  function fill(id, nodes) {
    const box = $(id);
    const atBottom = app.stickBottom[id] || box.scrollHeight - box.scrollTop - box.clientHeight < 48;
    // Move only what changed, so unchanged messages stay put (and a screen
    // reader does not read the whole channel again).
    nodes.forEach((n, i) => {
      if (box.childNodes[i] !== n) box.insertBefore(n, box.childNodes[i] || null);
    });
    while (box.childNodes.length > nodes.length) box.removeChild(box.lastChild);
    if (atBottom) box.scrollTop = box.scrollHeight;
    box.dataset.atBottom = String(atBottom);
    app.stickBottom[id] = false;
  }

  let introCache = null;
  function introNode(ch) {
    const welcome = welcomeOf(ch);
    const sig = ch.id + ch.name + ch.im + ch.bot_member + ch.shared + app.usersSig + (welcome === null ? '' : welcome);
    if (introCache && introCache.sig === sig) return introCache.node;
    const box = el('section', { class: 'intro', 'aria-label': ch.im ? 'About ' + botName() : 'About #' + ch.name });
    box.appendChild(el('div', { class: 'intro-icon' + (ch.im ? ' avatar-bot' : ''), 'aria-hidden': 'true' }, ch.im ? '' : ch.private ? '\u{1F512}' : '#'));
    if (ch.im) {
      box.appendChild(el('h2', { class: 'intro-title' }, botName()));
      box.appendChild(el('p', { class: 'intro-lead' }, 'This is the very beginning of your direct messages with ',
        el('strong', {}, botName()), '. What you write here goes to it alone.'));
    } else {
      box.appendChild(el('h2', { class: 'intro-title' }, ch.name));
      box.appendChild(el('p', { class: 'intro-lead' }, 'This is the very beginning of the ',
        el('strong', {}, '#' + ch.name), ' channel.',
        ch.bot_member ? ' ' + botName() + ' is a member: mention @' + botName() + ' to talk to it.' : ' ' + botName() + ' has not joined it, so it will ask you to invite it.'));
      if (ch.shared) {
        box.appendChild(el('p', { class: 'intro-lead intro-shared' }, sharedMark(ch),
          ' This channel is shared with another organisation (Slack Connect): its people read what is posted here.'));
      }
    }
    if (welcome === null) {
      box.appendChild(helpContent());
    } else {
      box.appendChild(el('div', { class: 'intro-text intro-welcome' }, renderMrkdwn(welcome, ctx)));
      box.appendChild(el('button', { type: 'button', class: 'intro-guide', 'aria-controls': 'help',
        onclick: openHelp }, 'Everything to try, and every command \u2192'));
    }
    introCache = { sig, node: box };
    return box;
  }

  // welcomeOf is the short text at the beginning of ch (WithWelcomes), or
  // null when the page has none: then the channel begins with the whole help.
  function welcomeOf(ch) {
    const w = app.state.welcomes;
    if (!w) return null;
    if (!ch.im && Object.prototype.hasOwnProperty.call(w, ch.id)) return w[ch.id];
    return Object.prototype.hasOwnProperty.call(w, '') ? w[''] : null;
  }

  // openHelp opens the help panel: the intro and every command.
  function openHelp() {
    app.panel = 'help';
    app.thread = null;
    render();
    $('help-close').focus();
  }

  function helpContent() {
    const st = app.state;
    const frag = el('div', { class: 'help-content' });
    if (st.intro) frag.appendChild(el('div', { class: 'intro-text' }, renderMrkdwn(st.intro, ctx)));
    if (st.commands.length) {
      const list = el('dl', { class: 'commands' });
      for (const c of st.commands) {
        list.appendChild(el('dt', {}, el('code', { class: 'code' }, c.name + (c.hint ? ' ' + c.hint : ''))));
        const dd = el('dd', {}, c.description || '');
        if (c.examples && c.examples.length) {
          const chips = el('div', { class: 'chips' }, el('span', { class: 'chips-label' }, 'Try:'));
          for (const ex of c.examples) {
            chips.appendChild(el('button', { type: 'button', class: 'chip', title: 'Put this in the message box',
              onclick: () => tryLine(ex) }, ex));
          }
          dd.appendChild(chips);
        }
        list.appendChild(dd);
      }
      frag.appendChild(list);
    }
    return frag;
  }

  function renderHelp() {
    const body = $('help-body');
    const sig = app.usersSig + JSON.stringify(app.state.commands) + app.state.intro;
    if (body.dataset.sig === sig) return;
    body.replaceChildren(helpContent());
    body.dataset.sig = sig;
  }

  function updateHash() {
    const thread = app.panel === 'thread' && app.thread && !app.pane ? '/' + app.thread : '';
    const h = '#' + app.current + (app.current === APP ? '/' + app.tab : '') + thread;
    if (location.hash !== h) history.replaceState(null, '', h);
  }

  // --------------------------------------------------------------- actions

  // openApp shows the app: its Home tab (sending app_home_opened, as each
  // visit to the tab does on Slack) or its Messages tab, the direct message
  // with it, which is opened the first time.
  function openApp(tab) {
    const was = app.current === APP ? app.tab : null;
    if (app.current !== APP || was !== tab) {
      if (app.panel === 'thread' && !app.pane) { app.panel = null; app.thread = null; }
      app.stickBottom.messages = true;
    }
    app.current = APP;
    app.tab = tab;
    document.body.classList.remove('sidebar-open');
    $('menu-btn').setAttribute('aria-expanded', 'false');
    $('composer-error').textContent = '';
    render();
    if (tab === 'home') {
      if (was !== 'home') post('api/home', {});
    } else {
      if (!app.state.dm) post('api/dm', {});
      $('composer-input').focus();
    }
  }

  function switchChannel(id) {
    if (id !== app.current) {
      app.current = id;
      if (app.panel === 'thread' && !app.pane) { app.panel = null; app.thread = null; }
      app.stickBottom.messages = true;
    }
    document.body.classList.remove('sidebar-open');
    $('menu-btn').setAttribute('aria-expanded', 'false');
    $('composer-error').textContent = '';
    render();
    $('composer-input').focus();
  }

  // openAssistant opens the app's assistant pane, as Slack's button does: a
  // new thread in the direct message with the app, looking at the channel
  // shown (none from the app's tabs), opened in the side panel.
  async function openAssistant() {
    const res = await post('api/assistant', { context: app.current !== APP ? app.current : '' });
    if (!res.ok) return;
    openThread(res.ts, true);
  }

  function closeSidebar() {
    document.body.classList.remove('sidebar-open');
    $('menu-btn').setAttribute('aria-expanded', 'false');
    $('menu-btn').focus();
  }

  function openThread(ts, pane = false) {
    app.thread = ts;
    app.pane = pane;
    app.panel = 'thread';
    app.stickBottom['thread-messages'] = true;
    $('thread-error').textContent = '';
    render();
    // The channel, narrowed beside the thread, wraps its messages onto more
    // lines: bring the message back into view.
    const row = [...$('messages').querySelectorAll('.msg')].find((n) => n.dataset.ts === ts);
    if (row) row.scrollIntoView({ block: 'nearest' });
    $('thread-input').focus({ preventScroll: true });
  }

  function closePanel() {
    const was = app.panel;
    app.panel = null;
    app.thread = null;
    app.pane = false;
    render();
    (was === 'help' ? $('help-btn') : $('composer-input')).focus();
  }

  function tryLine(line) {
    const input = $('composer-input');
    input.value = line;
    autosize(input);
    input.focus();
    input.setSelectionRange(line.length, line.length);
    updateSuggest(input);
  }

  let toastTimer = null;
  function toast(text) {
    const t = $('toast');
    t.textContent = text;
    t.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { t.hidden = true; }, 3000);
  }

  // request sends a JSON request to the page's server and returns its
  // answer (a SendResponse), or a failed one when the server is gone.
  async function request(path, body) {
    try {
      const r = await fetch(path, { method: 'POST', headers: Object.assign({ 'Content-Type': 'application/json' }, actingHeaders()), body: JSON.stringify(body) });
      return await r.json();
    } catch (err) {
      return { ok: false, message: 'The sandbox did not answer: is it still running?' };
    }
  }

  // post is request telling a refusal, a note or a request the bot left
  // unacknowledged in a toast.
  async function post(path, body) {
    const res = await request(path, body);
    if (!res.ok) toast(res.message || res.error || 'That did not work.');
    else if (res.pending) toast(botName() + ' has not acknowledged it yet.');
    else if (res.message) toast(res.message);
    return res;
  }

  // act sends the use of an interactive element to the bot (block_actions).
  async function act(scope, actionId, value, node) {
    if (!scope) return;
    if (!actionId) { toast('This element has no action_id, so the sandbox cannot send it.'); return; }
    if (node) node.setAttribute('aria-busy', 'true');
    await post('api/action', { channel: scope.channel || '', ts: scope.ts || '', view_id: scope.view || '', action_id: actionId, value: value || '' });
    if (node) node.removeAttribute('aria-busy');
  }

  // ------------------------------------------------------------------ menus

  // openMenu shows a menu of items ({label, hint, title, disabled,
  // onselect}) under anchor; it closes on a choice, Escape or a click
  // elsewhere.
  function openMenu(anchor, items) {
    closeMenu();
    const menu = el('ul', { class: 'menu', id: 'menu', role: 'menu' });
    items.forEach((it) => {
      const li = el('li', { role: 'menuitem', class: 'menu-item' + (it.disabled ? ' disabled' : ''), tabindex: '-1',
        'aria-disabled': it.disabled ? 'true' : false, title: it.title || false },
      el('span', { class: 'menu-label' }, it.label), it.hint ? el('span', { class: 'menu-hint' }, it.hint) : null);
      if (!it.disabled) {
        li.addEventListener('click', () => { closeMenu(); it.onselect(); });
        li.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); closeMenu(); it.onselect(); } });
      }
      menu.appendChild(li);
    });
    menu.addEventListener('keydown', (e) => {
      const all = [...menu.querySelectorAll('.menu-item')];
      const i = all.indexOf(document.activeElement);
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        all[(i + (e.key === 'ArrowDown' ? 1 : all.length - 1)) % all.length].focus();
      } else if (e.key === 'Escape' || e.key === 'Tab') {
        e.preventDefault();
        e.stopPropagation();
        closeMenu();
      }
    });
    document.body.appendChild(menu);
    const r = anchor.getBoundingClientRect();
    const top = Math.min(r.bottom + 4, window.innerHeight - menu.offsetHeight - 8);
    menu.style.top = Math.max(8, top) + 'px';
    menu.style.left = Math.max(8, Math.min(r.right - menu.offsetWidth, window.innerWidth - menu.offsetWidth - 8)) + 'px';
    anchor.setAttribute('aria-expanded', 'true');
    app.menuAnchor = anchor;
    const first = menu.querySelector('.menu-item');
    if (first) first.focus();
  }

  function closeMenu() {
    const m = $('menu');
    if (m) m.remove();
    if (app.menuAnchor) {
      app.menuAnchor.setAttribute('aria-expanded', 'false');
      if (document.activeElement === document.body || !document.activeElement) app.menuAnchor.focus();
      app.menuAnchor = null;
    }
  }

  async function send(input, errorBox, threadTS, box) {
    const text = input.value.trim();
    const files = app.attached[box];
    if ((!text && !files.length) || !app.current) return;
    let channel = (threadTS && app.pane ? threadChannel() : currentChannel()).id;
    if (!channel) {
      const opened = await post('api/dm', {});
      if (!opened.ok) return;
      channel = opened.channel;
    }
    errorBox.textContent = '';
    input.value = '';
    autosize(input);
    hideSuggest(input);
    if (threadTS) app.stickBottom['thread-messages'] = true;
    else app.stickBottom.messages = true;
    const body = { channel, text, thread_ts: threadTS || '' };
    if (files.length) body.files = await Promise.all(files.map(async (f) => ({ name: f.name, mimetype: f.type, data: await base64Of(f) })));
    const res = await request('api/send', body);
    if (!res.ok) {
      errorBox.textContent = res.message || res.error || 'Not sent.';
      if (!input.value) { input.value = text; autosize(input); }
      return;
    }
    if (files.length) {
      app.attached[box] = [];
      showAttached(box);
    }
    if (res.pending) toast(botName() + ' has not acknowledged the message yet.');
    else if (res.message) toast(res.message);
  }

  // base64Of is the bytes of a chosen file, base64, as /api/send takes them.
  async function base64Of(file) {
    const bytes = new Uint8Array(await file.arrayBuffer());
    let s = '';
    for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    return btoa(s);
  }

  // MAX_FILES is how many files a message may carry, as in Slack.
  const MAX_FILES = 10;

  // wireAttach lets the message box of prefix attach files: its button
  // opens the file picker; the files chosen show above its bar, each with
  // a button that removes it, until the message is sent.
  function wireAttach(box) {
    const picker = $(box + '-file');
    $(box + '-attach').addEventListener('click', () => picker.click());
    picker.addEventListener('change', () => {
      const chosen = [...picker.files];
      picker.value = '';
      const room = MAX_FILES - app.attached[box].length;
      if (chosen.length > room) toast('A message carries at most ' + MAX_FILES + ' files.');
      app.attached[box] = app.attached[box].concat(chosen.slice(0, Math.max(room, 0)));
      showAttached(box);
    });
  }

  // showAttached shows the files chosen for the message box of prefix.
  function showAttached(box) {
    const list = $(box + '-files');
    const files = app.attached[box];
    list.replaceChildren(...files.map((f, i) => el('li', { class: 'attachment', 'data-name': f.name },
      el('span', { class: 'file-name' }, f.name),
      el('span', { class: 'file-size' }, sizeOf(f.size)),
      el('button', { type: 'button', 'aria-label': 'Remove ' + f.name, title: 'Remove', onclick: () => {
        app.attached[box].splice(i, 1);
        showAttached(box);
      } }, '\u2715'))));
    list.hidden = files.length === 0;
  }

  // sendPrompt sends a suggested prompt's message in the assistant thread,
  // as the person picking it on Slack does.
  async function sendPrompt(channel, ts, text) {
    $('thread-error').textContent = '';
    app.stickBottom['thread-messages'] = true;
    const res = await request('api/send', { channel, text, thread_ts: ts });
    if (!res.ok) $('thread-error').textContent = res.message || res.error || 'Not sent.';
    else if (res.pending) toast(botName() + ' has not acknowledged the message yet.');
  }

  function autosize(t) {
    t.style.height = 'auto';
    t.style.height = Math.min(Math.max(t.scrollHeight, 42), 200) + 'px';
  }

  // ------------------------------------------------------- suggestions

  // Each message box (input) has its suggestion list, named by its
  // aria-controls.
  function suggestBox(input) { return $(input.getAttribute('aria-controls')); }

  // suggestions are what a message box offers for the word being typed:
  // slash commands for a leading "/" (in the channel's box only: commands
  // do not work in threads), people (the bot first) after "@". Each item
  // has a label, hint, desc and apply(value) giving the new value.
  function suggestions(input) {
    const v = input.value;
    if (!app.state) return [];
    if (input.id === 'composer-input' && v.startsWith('/') && !/\s/.test(v)) {
      return app.state.commands.filter((c) => c.name.startsWith(v)).map((c) => ({
        label: c.name, hint: c.hint, desc: c.description, apply: () => c.name + ' ',
      }));
    }
    const caret = input.selectionEnd === undefined ? v.length : input.selectionEnd;
    const m = /(^|\s)@([\p{L}\p{N}._-]*)$/u.exec(v.slice(0, caret));
    if (!m) return [];
    const word = m[2].toLowerCase();
    const start = caret - m[2].length - 1;
    return app.state.users
      .filter((u) => u.id !== app.state.me && u.name.toLowerCase().startsWith(word))
      .sort((a, b) => (b.bot ? 1 : 0) - (a.bot ? 1 : 0) || a.name.localeCompare(b.name))
      .slice(0, 8)
      .map((u) => ({
        label: '@' + u.name, hint: u.bot ? 'APP' : u.team ? 'EXTERNAL' : u.guest ? 'GUEST' : '', desc: u.bot ? 'Mention it to talk to it' : '',
        apply: (val) => val.slice(0, start) + '@' + u.name + ' ' + val.slice(caret),
        caret: start + u.name.length + 2,
      }));
  }

  function updateSuggest(input) {
    const box = suggestBox(input);
    const list = suggestions(input);
    if (!list.length) { hideSuggest(input); return; }
    app.suggestIndex = Math.min(app.suggestIndex, list.length - 1);
    box.replaceChildren(...list.map((c, i) => el('li', {
      id: box.id + '-' + i, role: 'option', class: 'suggest-item' + (i === app.suggestIndex ? ' active' : ''),
      'aria-selected': String(i === app.suggestIndex),
      onmousedown: (e) => { e.preventDefault(); complete(input, c); },
    }, el('span', { class: 'suggest-name' }, c.label), c.hint ? el('span', { class: 'suggest-hint' }, ' ' + c.hint) : null,
    c.desc ? el('span', { class: 'suggest-desc' }, c.desc) : null)));
    box.setAttribute('aria-label', list[0].label.startsWith('@') ? 'People and apps' : 'Slash commands');
    box.hidden = false;
    input.setAttribute('aria-expanded', 'true');
    input.setAttribute('aria-activedescendant', box.id + '-' + app.suggestIndex);
  }

  function hideSuggest(input) {
    suggestBox(input).hidden = true;
    input.setAttribute('aria-expanded', 'false');
    input.removeAttribute('aria-activedescendant');
    app.suggestIndex = 0;
  }

  function complete(input, c) {
    input.value = c.apply(input.value);
    input.focus();
    const at = c.caret === undefined ? input.value.length : c.caret;
    input.setSelectionRange(at, at);
    hideSuggest(input);
  }

  // ----------------------------------------------------------------- wiring

  function wireComposer(formId, inputId, errorId, threaded) {
    const form = $(formId);
    const input = $(inputId);
    const errorBox = $(errorId);
    const box = threaded ? 'thread' : 'composer';
    wireAttach(box);
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      send(input, errorBox, threaded ? app.thread : '', box);
    });
    input.addEventListener('input', () => {
      autosize(input);
      errorBox.textContent = '';
      updateSuggest(input);
    });
    input.addEventListener('click', () => updateSuggest(input));
    input.addEventListener('keydown', (e) => {
      if (!suggestBox(input).hidden) {
        const list = suggestions(input);
        if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
          e.preventDefault();
          app.suggestIndex = (app.suggestIndex + (e.key === 'ArrowDown' ? 1 : list.length - 1)) % list.length;
          updateSuggest(input);
          return;
        }
        if ((e.key === 'Tab' || e.key === 'Enter') && list.length && input.value !== list[app.suggestIndex].apply(input.value)) {
          e.preventDefault();
          complete(input, list[app.suggestIndex]);
          return;
        }
        if (e.key === 'Escape') { e.preventDefault(); hideSuggest(input); return; }
      }
      if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
        e.preventDefault();
        form.requestSubmit();
      }
    });
    // A keypress can come on its own (automation, some keyboards): Enter
    // without Shift must not leave a new line behind the sent message.
    input.addEventListener('keypress', (e) => {
      if (e.key === 'Enter' && !e.shiftKey) e.preventDefault();
    });
    input.addEventListener('blur', () => {
      setTimeout(() => { if (document.activeElement !== input) hideSuggest(input); }, 100);
    });
  }

  // connect opens the event stream of the acting person, closing the one
  // before: only the open stream's states are shown.
  function connect() {
    if (app.events) app.events.close();
    const es = app.as ? new EventSource('api/events' + actingQuery()) : new EventSource('api/events');
    app.events = es;
    es.addEventListener('state', (e) => {
      if (app.events !== es) return;
      $('banner').hidden = true;
      apply(JSON.parse(e.data));
    });
    es.addEventListener('error', () => {
      if (app.events !== es) return;
      const b = $('banner');
      b.textContent = 'Lost the connection to the sandbox. Reconnecting\u2026';
      b.hidden = false;
      if (es.readyState === EventSource.CLOSED) setTimeout(() => { if (app.events === es) loadState().then(connect); }, 2000);
    });
  }

  // loadState fetches the acting person's state once. A person the page
  // no longer knows (the sandbox started again with other people) is
  // forgotten: the page acts as its default person.
  async function loadState() {
    try {
      const r = await fetch('api/state', { headers: actingHeaders() });
      if (r.status === 400 && app.as) {
        app.as = '';
        sessionStorage.removeItem('slackweb.as');
        return loadState();
      }
      const s = await r.json();
      if (!app.state) apply(s);
    } catch (_) {
      // The stream reports a server that is gone.
    }
  }

  function init() {
    wireComposer('composer', 'composer-input', 'composer-error', false);
    wireComposer('thread-composer', 'thread-input', 'thread-error', true);
    $('thread-close').addEventListener('click', closePanel);
    $('help-close').addEventListener('click', closePanel);
    $('assistant-btn').addEventListener('click', openAssistant);
    $('help-btn').addEventListener('click', () => {
      if (app.panel === 'help') { closePanel(); return; }
      openHelp();
    });
    $('menu-btn').addEventListener('click', () => {
      const open = document.body.classList.toggle('sidebar-open');
      $('menu-btn').setAttribute('aria-expanded', String(open));
    });
    $('app-btn').addEventListener('click', () => openApp(app.current === APP ? app.tab : 'home'));
    $('tab-home').addEventListener('click', () => openApp('home'));
    $('tab-messages').addEventListener('click', () => openApp('messages'));
    $('app-tabs').addEventListener('keydown', (e) => {
      if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
      e.preventDefault();
      openApp(app.tab === 'home' ? 'messages' : 'home');
      $(app.tab === 'home' ? 'tab-home' : 'tab-messages').focus();
    });
    document.addEventListener('mousedown', (e) => {
      if ($('menu') && !e.target.closest('#menu') && e.target !== app.menuAnchor) closeMenu();
    });
    document.addEventListener('keydown', (e) => {
      if (e.key !== 'Escape' || (e.target.getAttribute('aria-controls') && e.target.getAttribute('aria-expanded') === 'true')) return;
      const modal = $('modal-root').querySelector('.modal');
      if ($('menu')) closeMenu();
      else if (modal) closeModal(modal.dataset.viewId);
      else if (document.body.classList.contains('sidebar-open')) closeSidebar();
      else if (app.panel) closePanel();
    });
    $('channel').addEventListener('click', (e) => {
      if (document.body.classList.contains('sidebar-open') && !e.target.closest('#menu-btn')) closeSidebar();
    });
    for (const id of ['messages', 'thread-messages']) {
      const box = $(id);
      box.addEventListener('scroll', () => {
        app.stickBottom[id] = false;
        box.dataset.atBottom = String(box.scrollHeight - box.scrollTop - box.clientHeight < 48);
      }, { passive: true });
    }
    loadState().then(connect);
    $('composer-input').focus();
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();
})();
