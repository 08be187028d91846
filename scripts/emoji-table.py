#!/usr/bin/env python3
"""Writes web/src/emoji/table.txt, the workspace's emoji table, from gemoji's
db/emoji.json (github/gemoji, MIT): `python3 scripts/emoji-table.py emoji.json`.

The table is compact on purpose (the web wasm has a gzip budget,
tests/bench/size-budgets.json): about 700 common emoji, no skin tones, no
ZWJ sequences, no country flags. One `[Category]` line starts each group;
each emoji is one line `emoji;name;shortcodes;keywords` (shortcodes and
keywords separated by spaces, at most two keywords).
"""

import json
import sys
from pathlib import Path

# Categories as the picker names them, in its order.
CATEGORIES = {
    "Smileys & Emotion": "Smileys",
    "People & Body": "People",
    "Animals & Nature": "Nature",
    "Food & Drink": "Food",
    "Activities": "Activities",
    "Travel & Places": "Travel",
    "Objects": "Objects",
    "Symbols": "Symbols",
    "Flags": "Flags",
}
PEOPLE = set("🙋 🙇 🤦 🤷 🙅 🙆 💁 🏃 🚶 💃 🕺 👶 🧑 👩 👨 🧓 👴 👵 👮 👷 🤴 👸 🎅 👼 🦸 🧙 🧘 🏄 🏊 🚴 🛌 👥 👤 🫂 🗣️ 👣".split())
FLAGS = set("🏁 🚩 🏳️ 🏴 🎌".split())
# Later than Unicode 6.1 yet common.
LATER = set(
    "🦄 🦊 🦋 🦁 🦀 🦉 🦈 🦜 🐿️ 🦔 🦇 🐝 🥑 🥓 🥐 🌮 🌯 🧀 🥂 🥃 🧁 🥗 🥞 🥨 🥯 🧇 🍿 🥤 🧋 🥇 🥈 🥉 🏅 🎖️ 🏓 🧩 🧸 🪁 "
    "🛠️ 🧪 🧯 🧰 🧲 🧭 🗓️ 🗒️ 🗂️ 🗑️ 🛒 🛡️ 🏗️ 🏖️ 🏝️ 🛫 🛬 🛸 🛰️ 🌡️ 🌤️ 🌧️ 🌪️ 🌫️ 🕹️ 🎞️ 🖥️ 🖨️ 🖱️ 🗝️ 🧾 🛎️ "
    "🕯️ 🪄 🧠 🦾 🦿 🏔️ 🏕️ 🏙️ 🛤️ 🛣️ 🛴 🛵 🏍️ 🏎️ 🛶 🪐 🌶️ 🍾 🏏 🏸 🥊 🥋 🛹 ⛷️ 🏂 🧗 🎗️ 🎟️ 📸 🔖 🏷️ "
    "🖊️ 🖋️ 🖌️ 🖍️ 🗃️ 🗄️ 🗳️ 📎 🖇️ 🗜️ 🛏️ 🛋️ 🪑 🧹 🧺 🧻 🧼 🧽 🪣 🧴 🔐 🪜 🧬 🦠 🧫 🩺 🩹 ♾️ ⏸️ ⏹️ ⏺️ 🛑 "
    "🟠 🟡 🟢 🟣 🟤 🟥 🟧 🟨 🟩 🟦 🟪 🟫 ☑️ 🤖 👾 🛎️".split()
)
# Unicode 6.1 or earlier, yet rare in a conversation.
SKIP = set(
    "♈ ♉ ♊ ♋ ♌ ♍ ♎ ♏ ♐ ♑ ♒ ♓ ⛎ #️⃣ *️⃣ 0️⃣ 1️⃣ 2️⃣ 3️⃣ 4️⃣ 5️⃣ 6️⃣ 7️⃣ 8️⃣ 9️⃣ 🔟 🔠 🔡 🔢 🔣 🔤 "
    "🈁 🈂️ 🈷️ 🈶 🈯 🉐 🈹 🈚 🈲 🉑 🈸 🈴 🈳 ㊗️ ㊙️ 🈺 🈵 🅰️ 🆎 🅱️ 🆑 🆖 🅾️ 🅿️ Ⓜ️ 🆔 🆙 🆚 "
    "🚹 🚺 🚻 🚼 🚾 🛂 🛃 🛄 🛅 🚮 🚰 🏧 🚯 🚱 🚷 🚳 ✡️ ☸️ ✝️ ☦️ ☪️ 🔯 ⚛️ 🔙 🔚 🔛 🔜 🔝 ⤴️ ⤵️ 🔃 "
    "◼️ ◻️ ◾ ◽ ▪️ ▫️ 🔸 🔹 💠 🔘 🔳 🔲 ⬛ ⬜ 〰️ ➰ ➿ 〽️ ✳️ ✴️ ❇️ 🎦 📶 📳 📴 💱 ⚜️ 🔱 📛 🔰 ©️ ®️ ™️ "
    "🕛 🕧 🕐 🕜 🕑 🕝 🕒 🕞 🕓 🕟 🕔 🕠 🕕 🕡 🕖 🕢 🕗 🕣 🕘 🕤 🕙 🕥 🕚 🕦 🌒 🌓 🌔 🌖 🌗 🌘 🌛 🌜 "
    "🗾 🏣 🏤 🏩 🏪 🏬 🏯 💒 🌁 🌃 🌆 🌇 🌉 ♨️ 🚃 🚄 🚅 🚆 🚇 🚈 🚉 🚊 🚝 🚞 🚋 🚍 🚎 🚐 🚔 🚖 🚘 🚙 🚛 🚟 🚠 🚡 🚏 🚥 ⛴️ 💺 "
    "👘 👙 👚 👛 👝 👡 👢 📯 📟 📠 💽 📀 📼 📔 📕 📗 📘 📙 📓 📒 📃 📑 💴 💶 💷 💹 📨 📩 📫 📪 📬 📭 📮 📇 🔏 ⛏️ ⚒️ ⚗️ 🚬 ⚰️ ⚱️ "
    "🐩 🐅 🐆 🐎 🐂 🐃 🐄 🐖 🐗 🐽 🐏 🐐 🐪 🐁 🐀 🐇 🐓 🐊 🐉 🐋 💮 🍈 🍘 🍙 🍥 🍡 🍢 🍶 🎋 🎍 🎎 🎏 🎐 🎑 🎴 🀄 🎽 🔫".split()
)


def wanted(e):
    emoji, category = e["emoji"], e["category"]
    if "\u200d" in emoji or emoji in SKIP:
        return False
    if emoji in LATER:
        return True
    version = float(e.get("unicode_version") or 0)
    if version > 13.0:
        return False
    if category == "Flags":
        return emoji in FLAGS
    if category == "People & Body":
        return emoji in PEOPLE or version <= 6.1 and e["description"].split()[-1] in ("hand", "hands", "fist", "finger", "up", "down", "sign", "eyes", "ear", "nose", "mouth", "tongue", "lips", "arm", "muscle", "hand", "raised", "clap", "pray", "wave") or emoji in "👋👌✌️🤞🤟🤘🤙👈👉👆👇☝️👍👎✊👊🤛🤜👏🙌👐🤲🤝🙏✍️💅💪👀👂👃👅👄"
    return category == "Smileys & Emotion" or version <= 6.1


def main(path):
    table = json.loads(Path(path).read_text())
    groups = {name: [] for name in CATEGORIES.values()}
    for e in table:
        if wanted(e):
            keywords = " ".join(e["tags"][:2])
            line = f"{e['emoji']};{e['description']};{' '.join(e['aliases'])};{keywords}"
            groups[CATEGORIES[e["category"]]].append(line)
    out = []
    for name, lines in groups.items():
        if lines:
            out.append(f"[{name}]")
            out.extend(lines)
    target = Path(__file__).resolve().parent.parent / "web" / "src" / "emoji" / "table.txt"
    target.write_text("\n".join(out) + "\n")
    print(f"{sum(len(g) for g in groups.values())} emoji in {target}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "emoji.json")
