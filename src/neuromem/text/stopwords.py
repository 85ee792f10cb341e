"""Small built-in stopword lists for Chinese and English.

Deliberately short: only function words that carry no retrieval signal. Words
such as "not"/"不" stay, because negation changes what a memory means.
"""

from __future__ import annotations

_EN_WORDS = """
    a an the and or but if then else so of to in on at by for with from into onto
    over under about as than too very is am are was were be been being do does did
    doing have has had having i me my mine myself we us our ours you your yours he him
    his she her hers it its they them their theirs this that these those there here
    what which who whom whose when where why how all any both each few more most
    other some such only own same just can could will would shall should may might
    must s t d ll m re ve im ive id dont doesnt didnt isnt arent wasnt werent its
    also up down out off again further once let lets yes ok okay oh uh um
"""

_ZH_WORDS = """
    的 了 着 过 地 得 之 与 及 和 跟 同 或 而 并 且 也 又 就 都 还 再 才 只 很 太 更 最
    是 在 有 为 以 于 被 把 让 给 从 向 对 比 由 将 这 那 这个 那个 这些 那些 这样 那样
    我 你 您 他 她 它 我们 你们 他们 她们 它们 咱们 自己 吗 呢 吧 啊 呀 哦 嗯 哈 嘛 啦
    个 些 一个 一些 什么 怎么 怎样 如何 为什么 哪 哪里 哪个 谁 因为 所以 但是 但 可是
    如果 虽然 然后 而且 还是 或者 就是 已经 其实 一下 一点 一样 这么 那么 以及 等 等等
"""

EN_STOPWORDS: frozenset[str] = frozenset(_EN_WORDS.split())
ZH_STOPWORDS: frozenset[str] = frozenset(_ZH_WORDS.split())
STOPWORDS: frozenset[str] = EN_STOPWORDS | ZH_STOPWORDS


def is_stopword(token: str) -> bool:
    """True when ``token`` (already lower-cased) is a built-in stopword."""
    return token in STOPWORDS
