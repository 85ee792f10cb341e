// neuromem memory page: plain JavaScript, no build step. Talks to ./api (routes.py).
"use strict";

const TEXT = {
  en: {
    skip: "Skip to content", title: "What neuromem knows about you", user: "User id", key: "API key",
    load: "Show", traits: "Traits", traitsHint: "What the system has come to believe about you, by how settled it is.",
    memories: "Memories", search: "Search", find: "Find", prompt: "Prompt preview",
    query: "A message to the assistant", show: "Preview", evidence: "Evidence", hide: "Hide evidence",
    correct: "Correct", save: "Save", cancel: "Cancel", del: "Delete", forget: "Forget", pin: "Pin", unpin: "Unpin",
    details: "History and sources", hideDetails: "Hide history", confirmDelete: "Yes, delete",
    confirmForget: "Yes, forget for good", reallyDelete: "Delete this? Its history keeps it.",
    reallyForget: "Forget every trace of this? This cannot be undone.",
    confidence: "confidence", decayed: "now {0} after decay", pieces: "{0} pieces of evidence",
    none: "Nothing yet.", loading: "Loading…", loaded: "Showing the memory of {0}.", corrected: "Corrected.",
    deleted: "Deleted.", forgotten: "Forgotten: it is gone.", pinned: "Pinned: always in the prompt.",
    unpinned: "Unpinned.", originalWords: "Original words", said: "said", newText: "Corrected text",
    history: "History", version: "v{0}", needUser: "Enter a user id first.",
    core: "core", established: "established", emerging: "emerging", candidate: "candidate", trend: "trend",
    supporting: "supporting", contradicting: "contradicting", tokens: "{0} of {1} tokens",
    actionsHint: "Delete stops using a memory but keeps it in its history. Forget erases every trace of it "
      + "(words, history, sources) for good, with a receipt; it cannot be undone.",
    deleteTitle: "Stop using this memory; its history keeps it.",
    forgetTitle: "Erase every trace of this for good (words, history, sources); cannot be undone.",
    happened: "happened {0}", added: "added {0}", since: "seen since {0}", lastSeen: "last seen {0}",
    k_fact: "fact", k_episodic: "episode", k_document: "document", k_trait: "trait", k_behavior: "behaviour",
    k_preference: "preference", k_core: "core", k_identity: "identity", k_relationship: "relationship",
    k_task: "task", k_procedure: "procedure", k_general: "general", k_user: "user", k_assistant: "assistant",
  },
  zh: {
    skip: "跳到正文", title: "neuromem 对你的了解", user: "用户 ID", key: "API 密钥", load: "查看",
    traits: "特质", traitsHint: "系统逐渐形成的对你的认识，按确定程度排列。", memories: "记忆", search: "搜索",
    find: "查找", prompt: "提示词预览", query: "发给助手的一句话", show: "预览", evidence: "证据", hide: "收起证据",
    correct: "更正", save: "保存", cancel: "取消", del: "删除", forget: "彻底遗忘", pin: "置顶", unpin: "取消置顶",
    details: "历史与来源", hideDetails: "收起历史", confirmDelete: "确认删除", confirmForget: "确认彻底遗忘",
    confidence: "置信度",
    decayed: "衰减后为 {0}", pieces: "{0} 条证据", none: "暂时没有。", loading: "加载中…",
    loaded: "正在显示 {0} 的记忆。", corrected: "已更正。", deleted: "已删除。", forgotten: "已彻底遗忘。",
    pinned: "已置顶：总会出现在提示词中。", unpinned: "已取消置顶。", originalWords: "原话", said: "说",
    newText: "更正后的内容", history: "历史", version: "第 {0} 版", needUser: "请先输入用户 ID。",
    core: "核心", established: "稳定", emerging: "形成中", candidate: "候选", trend: "趋势",
    supporting: "支持", contradicting: "反驳", tokens: "{0} / {1} 个词元",
    actionsHint: "“删除”让系统不再使用这条记忆，但历史中仍保留它；“彻底遗忘”会永久抹去它的所有痕迹"
      + "（原话、历史、来源），并留下凭据，无法撤销。",
    deleteTitle: "不再使用这条记忆；历史中仍保留它。",
    forgetTitle: "永久抹去它的所有痕迹（原话、历史、来源），无法撤销。",
    reallyDelete: "删除这一条？历史中仍会保留它。", reallyForget: "彻底遗忘这一条的所有痕迹？此操作无法撤销。",
    happened: "发生于 {0}", added: "记录于 {0}", since: "始于 {0}", lastSeen: "最近一次 {0}",
    k_fact: "事实", k_episodic: "经历", k_document: "文档", k_trait: "特质", k_behavior: "行为",
    k_preference: "偏好", k_core: "核心", k_identity: "身份", k_relationship: "关系",
    k_task: "任务", k_procedure: "步骤", k_general: "一般", k_user: "用户", k_assistant: "助手",
  },
};

const state = { lang: localStorage.getItem("nm-lang") || ((navigator.language || "en").startsWith("zh") ? "zh" : "en"),
                user: "", key: sessionStorage.getItem("nm-key") || "", features: {} };

function t(name, ...args) {
  const text = (TEXT[state.lang] || TEXT.en)[name] || TEXT.en[name] || name;
  return text.replace(/\{(\d)\}/g, (_, i) => String(args[Number(i)]));
}

// a stored word (memory type, trait subtype, category, role) in the page's language
const kind = (value) => (value ? t("k_" + value).replace(/^k_/, "") : null);

function day(iso) {
  if (!iso) return null;
  const when = new Date(iso);
  const text = when.toLocaleDateString(state.lang === "zh" ? "zh-CN" : "en-GB",
                                       { year: "numeric", month: "short", day: "numeric" });
  return { iso, text };
}

function dated(label, iso) {
  const d = day(iso);
  return d ? el("time", { datetime: d.iso }, t(label, d.text)) : null;
}

function joined(parts, separator = " · ") {
  const kept = parts.filter((p) => p !== null && p !== undefined && p !== "");
  return kept.flatMap((p, i) => (i ? [separator, p] : [p]));
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) node.append(c);
  return node;
}

function say(message, error = false) {
  const status = document.getElementById("status");
  status.textContent = message;
  status.className = error ? "error" : "";
}

async function api(path, options = {}) {
  const headers = { "Accept": "application/json", ...(options.body ? { "Content-Type": "application/json" } : {}) };
  if (state.key) headers["Authorization"] = "Bearer " + state.key;
  const response = await fetch("api/" + path, { ...options, headers });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(data.detail || data.title || response.statusText);
  return data;
}

const userPath = (rest) => `users/${encodeURIComponent(state.user)}/${rest}`;

function applyLanguage() {
  document.documentElement.lang = state.lang === "zh" ? "zh-CN" : "en";
  for (const node of document.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  document.getElementById("lang").textContent = state.lang === "zh" ? "English" : "中文";
  document.title = "neuromem — " + t("title");
}

function bar(value) {
  const pct = Math.round(Math.max(0, Math.min(1, value || 0)) * 100);
  return el("span", { class: "conf", role: "img", "aria-label": `${t("confidence")} ${pct}%` },
            el("span", { style: `width:${pct}%` }));
}

function confirmStep(container, question, yesLabel, action) {
  const box = el("span", { class: "confirm", role: "group", "aria-label": question }, question, " ");
  const yes = el("button", { type: "button", class: "danger", onclick: async () => { box.remove(); await action(); } },
                 yesLabel);
  const no = el("button", { type: "button", onclick: () => box.remove() }, t("cancel"));
  box.append(yes, " ", no);
  container.append(box);
  yes.focus();
}

function correctForm(item, record, after) {
  // a text area as tall as the sentence: the whole text is in view while it is corrected
  const input = el("textarea", { "aria-label": t("newText"), class: "correct-input",
                                 rows: String(Math.min(10, Math.max(2, Math.ceil(record.content.length / 60) + 1))) });
  input.value = record.content;
  input.addEventListener("keydown", (event) => {  // Enter saves, Shift+Enter starts a new line
    if (event.key === "Enter" && !event.shiftKey) { event.preventDefault(); form.requestSubmit(); }
  });
  const form = el("form", { class: "bar correct-form" },
    el("label", {}, el("span", {}, t("newText")), input),
    el("button", { type: "submit" }, t("save")),
    el("button", { type: "button", onclick: () => { form.remove(); } }, t("cancel")));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      await api(userPath(`memories/${record.id}`), { method: "PUT", body: JSON.stringify({ content: input.value }) });
      say(t("corrected"));
      await after();
    } catch (error) { say(error.message, true); }
  });
  item.append(form);
  input.focus();
  input.select();
}

function actions(item, record, kind) {
  const row = el("div", { class: "actions" });
  const reload = () => loadAll(false);
  row.append(el("button", { type: "button", class: "correct", onclick: () => correctForm(item, record, reload) },
                t("correct")));
  if (kind === "memory" && state.features.pin) {
    row.append(el("button", { type: "button", class: "pin", onclick: async () => {
      try {
        await api(userPath(`memories/${record.id}/pin`), { method: "POST", body: JSON.stringify({ pinned: !record.pinned }) });
        say(record.pinned ? t("unpinned") : t("pinned"));
        await reload();
      } catch (error) { say(error.message, true); }
    } }, record.pinned ? t("unpin") : t("pin")));
  }
  if (state.features.forget) {
    row.append(el("button", { type: "button", class: "danger forget", title: t("forgetTitle"), onclick: () =>
      confirmStep(row, t("reallyForget"), t("confirmForget"), async () => {
        try { await api(userPath(`memories/${record.id}/forget`), { method: "POST" }); say(t("forgotten")); await reload(); }
        catch (error) { say(error.message, true); }
      }) }, t("forget")));
  }
  row.append(el("button", { type: "button", class: "delete", title: t("deleteTitle"), onclick: () =>
    confirmStep(row, t("reallyDelete"), t("confirmDelete"), async () => {
      try { await api(userPath(`memories/${record.id}`), { method: "DELETE" }); say(t("deleted")); await reload(); }
      catch (error) { say(error.message, true); }
    }) }, t("del")));
  return row;
}

function origin(data) {
  const parts = [];
  if (data.quotes && data.quotes.length) {
    parts.push(el("div", { class: "meta" }, t("originalWords") + ":"),
               ...data.quotes.map((q) => el("div", { class: "quote" }, q)));
  }
  for (const m of data.messages || []) {
    parts.push(el("div", { class: "message" }, el("span", { class: "meta" }, `${kind(m.role)} ${t("said")}: `), m.content));
  }
  return parts;
}

function toggle(button, panelId, openLabel, closeLabel, fill) {
  button.setAttribute("aria-expanded", "false");
  button.setAttribute("aria-controls", panelId);
  button.addEventListener("click", async () => {
    const open = button.getAttribute("aria-expanded") === "true";
    const existing = document.getElementById(panelId);
    if (open) {
      existing?.remove();
      button.setAttribute("aria-expanded", "false");
      button.textContent = openLabel;
      return;
    }
    try {
      const panel = el("div", { id: panelId, class: "panel", tabindex: "-1" }, ...(await fill()));
      button.closest("li").append(panel);
      button.setAttribute("aria-expanded", "true");
      button.textContent = closeLabel;
      panel.focus();
    } catch (error) { say(error.message, true); }
  });
  return button;
}

function renderTraits(data) {
  const box = document.getElementById("traits");
  box.replaceChildren();
  if (!data.stages.length) box.append(el("p", { class: "hint" }, t("none")));
  for (const group of data.stages) {
    const list = el("ul", { class: "items" });
    box.append(el("h3", {}, t(group.stage)), list);
    for (const trait of group.traits) {
      const item = el("li", { class: "trait", "data-id": trait.id });
      const decayed = trait.decayed_confidence == null ? "" : " · " + t("decayed", trait.decayed_confidence.toFixed(2));
      const confidence = trait.confidence == null ? [] :
        [` · ${t("confidence")} `, bar(trait.confidence), trait.confidence.toFixed(2), decayed];
      item.append(
        el("div", { class: "content" }, trait.content),
        el("div", { class: "meta" }, kind(trait.subtype) || "", ...confidence, " · ", t("pieces", trait.evidence_count)),
        el("div", { class: "meta dates" }, ...joined([dated("since", trait.first_observed),
                                                      dated("lastSeen", trait.last_reinforced)])));
      const evidence = toggle(el("button", { type: "button", class: "evidence" }, t("evidence")),
        `ev-${trait.id}`, t("evidence"), t("hide"), async () => {
          const detail = await api(userPath(`traits/${trait.id}`));
          return [el("ul", { class: "evidence-list" }, detail.evidence.map((e) => el("li", {},
            el("div", {}, el("strong", {}, `${e.quality} · ${t(e.type)} `), e.content || ""), ...origin(e))))];
        });
      const row = actions(item, trait, "trait");
      row.prepend(evidence);
      item.append(row);
      list.append(item);
    }
  }
}

function renderMemories(data) {
  const list = document.getElementById("memories");
  list.replaceChildren();
  if (!data.memories.length) list.append(el("li", { class: "hint" }, t("none")));
  for (const record of data.memories) {
    const item = el("li", { class: "memory", "data-id": record.id });
    // the event time when it differs from the day the memory was written, and that day
    const happened = day(record.valid_at), added = day(record.created_at);
    const dates = [happened && happened.text !== added?.text ? dated("happened", record.valid_at) : null,
                   dated("added", record.created_at)];
    const tags = [kind(record.memory_type), kind(record.category), t("version", record.version),
                  record.pinned ? "📌" : null, ...dates];
    item.append(el("div", { class: "content" }, record.content), el("div", { class: "meta" }, ...joined(tags)));
    const more = toggle(el("button", { type: "button", class: "details" }, t("details")), `md-${record.id}`,
      t("details"), t("hideDetails"), async () => {
        const detail = await api(userPath(`memories/${record.id}`));
        return [el("div", { class: "meta" }, t("history") + ":"),
                el("ol", { class: "history" }, detail.history.map((h) => el("li", {},
                  `${h.at.slice(0, 19).replace("T", " ")} ${h.event} (${h.actor}): `,
                  h.old ? `${h.old} → ` : "", h.new || ""))),
                ...origin(detail)];
      });
    const row = actions(item, record, "memory");
    row.prepend(more);
    item.append(row);
    list.append(item);
  }
}

async function loadMemories() {
  const q = document.getElementById("q").value.trim();
  renderMemories(await api(userPath(`memories${q ? "?q=" + encodeURIComponent(q) : ""}`)));
}

async function loadAll(announce = true) {
  if (!state.user) { say(t("needUser"), true); return; }
  if (announce) say(t("loading"));
  try {
    renderTraits(await api(userPath("traits")));
    await loadMemories();
    if (announce) say(t("loaded", state.user));
  } catch (error) { say(error.message, true); }
}

document.getElementById("lang").addEventListener("click", () => {
  state.lang = state.lang === "zh" ? "en" : "zh";
  localStorage.setItem("nm-lang", state.lang);
  applyLanguage();
  say("");
  if (state.user) loadAll();
});
document.getElementById("who").addEventListener("submit", (event) => {
  event.preventDefault();
  state.user = document.getElementById("user").value.trim();
  state.key = document.getElementById("key").value.trim();
  if (state.key) sessionStorage.setItem("nm-key", state.key);
  loadAll();
});
document.getElementById("search").addEventListener("submit", async (event) => {
  event.preventDefault();
  if (!state.user) { say(t("needUser"), true); return; }
  try { await loadMemories(); } catch (error) { say(error.message, true); }
});
document.getElementById("preview").addEventListener("submit", async (event) => {
  event.preventDefault();
  if (!state.user) { say(t("needUser"), true); return; }
  try {
    const block = await api(userPath("prompt?q=" + encodeURIComponent(document.getElementById("pq").value)));
    document.getElementById("block").textContent = block.text || t("none");
    say(t("tokens", block.tokens, block.budget));
  } catch (error) { say(error.message, true); }
});

(async () => {
  applyLanguage();
  document.getElementById("key").value = state.key;
  try {
    const config = await api("config");
    state.features = config.features;
    if (!config.key_required) document.getElementById("key-field").hidden = true;
  } catch (error) { say(error.message, true); }
  const fromUrl = new URLSearchParams(location.search).get("user");
  if (fromUrl) { document.getElementById("user").value = fromUrl; state.user = fromUrl; loadAll(); }
})();
