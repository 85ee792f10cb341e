"""Regenerate ``update_pairs.jsonl``: labelled statement sequences for truth over time (issue 21).

Each record is a short conversation in which a fact is stated and later stated again, changed,
added to, or followed by a different fact sharing its words:

- ``update``: a single-valued relation (where someone lives, works, an extension, a price,
  a status, a manager, a partner, a phone number, a password, a car plate, a deadline, a capital,
  a CTO, a husband…) gets a new value; ``current`` must be the true value at the end, ``stale``
  the value it replaced. Negations ("I quit smoking" ends "I smoke"), partial updates (another
  flat in the same city), updates given as the answer to an assistant question, and three-step
  sequences are included;
- ``addition``: a multi-valued relation (allergies, likes, children, languages, hobbies…) gets
  one more value; every earlier value stays current;
- ``restatement``: the same fact in other words or word order; it stays current;
- ``unrelated``: a different subject or relation that shares words; both facts stay current. The
  question asks for the later statement, or (the records appended last, ids from 100) for the
  earlier one: a later statement about something else must not outrank it.

Every record: ``id``, ``lang`` (en/zh), ``person`` (first/third: who the fact is about),
``label``, ``slot_kind`` (single/multi), ``gap`` (minutes/days/months between the statements),
``turns`` (``role``, ``content``, ``timestamp``), ``question`` (asks for the current value),
``asked_at``, ``current`` (a short string the current memory must contain), ``stale`` (the
replaced value, updates only, else null) and ``keep`` (the strings that must stay current:
every value for addition/restatement/unrelated, empty for updates).

Written by hand for neuromem; no external data; no two records share a wording pattern beyond
a few. Run ``python tests/data/make_update_pairs.py`` to rewrite the file.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

OUT = Path(__file__).with_name("update_pairs.jsonl")
FRESH_OUT = Path(__file__).with_name("update_pairs_fresh.jsonl")
FRESH_FROM = 300  # the fresh set's first record number
FRESH2_OUT = Path(__file__).with_name("update_pairs_fresh2.jsonl")
FRESH2_FROM = 400  # the second fresh set's first record number
FRESH3_OUT = Path(__file__).with_name("update_pairs_fresh3.jsonl")
FRESH3_FROM = 500  # the third fresh set's first record number
FRESH4_OUT = Path(__file__).with_name("update_pairs_fresh4.jsonl")
FRESH4_FROM = 600  # the fourth fresh set's first record number
FRESH5_OUT = Path(__file__).with_name("update_pairs_fresh5.jsonl")
FRESH5_FROM = 700  # the fifth fresh set's first record number
FRESH6_OUT = Path(__file__).with_name("update_pairs_fresh6.jsonl")
FRESH6_FROM = 800  # the sixth fresh set's first record number
T0 = dt.datetime(2024, 1, 8, 9, 0, tzinfo=dt.UTC)
#: the gap before each new statement, cycled over the records of a list
GAPS = (
    ("minutes", dt.timedelta(minutes=3)),
    ("days", dt.timedelta(days=3)),
    ("months", dt.timedelta(days=62)),
    ("days", dt.timedelta(days=11)),
    ("months", dt.timedelta(days=150)),
    ("minutes", dt.timedelta(minutes=40)),
    ("days", dt.timedelta(days=1)),
    ("months", dt.timedelta(days=240)),
)
REPLY_AFTER = dt.timedelta(seconds=30)  # a user's answer to an assistant question
ASSISTANT_PREFIX = {"en": "A:", "zh": "助手:"}

# Rows: (person 1/3, turns separated by "|" — an assistant turn starts with "A:" / "助手:", question,
# current, stale) for updates; (person, turns, question, current, earlier values ";") for additions;
# (person, slot kind s/m, turns, question, current, other strings to keep ";") for restatements and
# unrelated pairs.

# one record per line, so that the tables read and diff as rows:
# fmt: off
# (person, turns "|"-separated, "A:" = assistant turn, question, current, stale[, gap])
EN_UPDATES = [
    (1, "I live in Berlin.|I moved to Munich last month.", "Where do I live now?", "Munich", "Berlin"),
    (1, "My flat is on Torstrasse in Leipzig.|We moved to another flat in Leipzig, on Karl-Heine-Strasse.", "What street is my flat on?", "Karl-Heine", "Torstrasse"),
    (1, "I work at Siemens as a test engineer.|Started my new job at Bosch today!", "Where do I work?", "Bosch", "Siemens"),
    (1, "My desk phone extension is 4417.|IT reassigned extensions, mine is 5820 now.", "What is my phone extension?", "5820", "4417"),
    (3, "The Pro plan costs $20 a month.|They raised the Pro plan to $24 a month.", "How much is the Pro plan?", "$24", "$20"),
    (1, "My visa application status is pending.|A:Any news on your visa?|Yes, it was approved yesterday.", "What is the status of my visa application?", "approved", "pending"),
    (1, "My manager is Priya Nair.|After the reorg I report to Daniel Ortiz.", "Who is my manager?", "Daniel Ortiz", "Priya Nair"),
    (1, "My partner is called Jonas.|Jonas and I broke up; I'm seeing Felix now.", "Who is my partner?", "Felix", "Jonas"),
    (1, "My mobile number is 0176 5512 903.|New phone number: 0151 2290 774, the old one is dead.", "What is my phone number?", "0151 2290 774", "0176 5512 903"),
    (1, "The wifi password at home is sunflower42.|I changed the home wifi password to tidepool-88.", "What is the home wifi password?", "tidepool-88", "sunflower42"),
    (1, "My car plate is B-KX 4021.|Re-registered the car after the move, the plate is now M-TR 7733.", "What is my car's licence plate?", "M-TR 7733", "B-KX 4021"),
    (1, "The thesis deadline is March 15.|My supervisor extended the thesis deadline to April 30.", "When is my thesis deadline?", "April 30", "March 15"),
    (3, "The capital of Kazakhstan is Almaty.|Kazakhstan moved its capital from Almaty to Astana.", "What is the capital of Kazakhstan?", "Astana", "Almaty"),
    (3, "Our CTO is Helen Park.|Helen left; our CTO is now Marcus Lee.", "Who is our CTO?", "Marcus Lee", "Helen Park"),
    (3, "Mei's husband is Kenji.|Mei divorced Kenji and married a guy named Arthur last spring.", "Who is Mei's husband?", "Arthur", "Kenji"),
    (1, "I smoke about a pack a day.|I quit smoking in January and haven't touched one since.", "Do I smoke?", "quit smoking", "a pack a day"),
    (1, "I'm vegetarian.|I'm not vegetarian anymore, I eat fish and chicken again.", "Am I vegetarian?", "not vegetarian anymore", "I'm vegetarian."),
    (1, "I drink three coffees a day.|A:How's the coffee habit going?|I gave up coffee completely, only herbal tea now.", "How much coffee do I drink?", "gave up coffee", "three coffees"),
    (3, "My sister lives in Lyon.|My sister relocated to Bordeaux for her husband's job.", "Where does my sister live?", "Bordeaux", "Lyon"),
    (3, "Tom works at Deloitte.|Tom left Deloitte and joined a startup called Fernwood.", "Where does Tom work?", "Fernwood", "Deloitte"),
    (1, "My gym membership is at FitOne on Main Street.|I switched gyms, I train at Iron Temple now.", "Which gym do I go to?", "Iron Temple", "FitOne"),
    (1, "I drive a 2012 Honda Civic.|Sold the Civic, bought a used Skoda Octavia.", "What car do I drive?", "Skoda Octavia", "Honda Civic"),
    (1, "My rent is 1,150 euros a month.|The landlord put the rent up to 1,290 euros.", "How much is my rent?", "1,290", "1,150"),
    (1, "My email is anna.k@postbox.de.|Please use my new address anna.kowalski@mailfence.com from now on.", "What is my email address?", "anna.kowalski@mailfence.com", "anna.k@postbox.de"),
    (1, "I'm a junior designer at Studio Noor.|Got promoted to senior designer this week.", "What is my job title?", "senior designer", "junior designer"),
    (1, "My dentist is Dr. Alvarez.|A:Are you still seeing the same dentist?|No, I switched to Dr. Whitfield, closer to the office.", "Who is my dentist?", "Whitfield", "Alvarez"),
    (1, "I take 10 mg of lisinopril every morning.|My doctor raised my lisinopril to 20 mg.", "What dose of lisinopril do I take?", "20 mg", "10 mg"),
    (1, "My weekly team meeting is on Tuesdays at 10.|The team meeting moved to Thursdays at 2pm.", "When is my team meeting?", "Thursdays", "Tuesdays"),
    (1, "I'm single.|I got engaged to Sam over the weekend!", "What is my relationship status?", "engaged", "single"),
    (1, "Our office is on the 3rd floor of the Hanover building.|We moved the office to the 11th floor.", "Which floor is our office on?", "11th floor", "3rd floor"),
    (3, "My brother is studying law at Edinburgh.|My brother switched from law to medicine.", "What does my brother study?", "medicine", "law"),
    (1, "My locker code is 3-19-27.|Reset the locker combination to 8-02-44.", "What is my locker code?", "8-02-44", "3-19-27"),
    (3, "The project lead for Atlas is Rina.|Rina handed Atlas over to Bogdan, he leads it now.", "Who leads the Atlas project?", "Bogdan", "Rina"),
    (1, "My flight to Lisbon is on May 4.|A:Is the Lisbon trip still on May 4?|The airline rebooked me onto May 6.", "When is my flight to Lisbon?", "May 6", "May 4"),
    (1, "I go by 'Kat' at work.|People at work call me Katja now, I dropped the nickname.", "What name do I go by at work?", "Katja", "'Kat'"),
    (1, "I use a Pixel 6.|Upgraded to an iPhone 15 last week.", "What phone do I use?", "iPhone 15", "Pixel 6"),
    (1, "My bank is Sparkasse.|Closed my Sparkasse account, everything is at Triodos now.", "Which bank do I use?", "Triodos", "Sparkasse"),
    (3, "Our landlord is Mr. Fischer.|The building was sold; our new landlord is Mrs. Baptiste.", "Who is our landlord?", "Baptiste", "Fischer"),
    (1, "I weigh 82 kg.|Down to 76 kg after the summer!", "How much do I weigh?", "76 kg", "82 kg"),
    (1, "I'm in the Pacific time zone.|Since moving east I'm on Eastern time.", "Which time zone am I in?", "Eastern", "Pacific"),
    (1, "My GitHub handle is kfranz.|I renamed my GitHub account to kf-builds.", "What is my GitHub username?", "kf-builds", "kfranz"),
    (3, "My daughter goes to Maple Grove Elementary.|My daughter started at Riverside Middle School this fall.", "Which school does my daughter attend?", "Riverside", "Maple Grove"),
    (1, "My annual salary is 58,000.|After the raise I make 64,500 a year.", "What is my salary?", "64,500", "58,000"),
    (1, "I usually wake up at 6:30.|A:Still an early riser?|Not really, these days I get up around 8.", "What time do I wake up?", "around 8", "6:30"),
    (3, "The office wifi network is called Corp-Guest.|IT renamed the office wifi to Harbor-5G.", "What is the office wifi called?", "Harbor-5G", "Corp-Guest"),
    (1, "My therapist is Dr. Lindqvist.|I stopped seeing Lindqvist and started with a new therapist, Dr. Okafor.", "Who is my therapist?", "Okafor", "Lindqvist"),
    (1, "My hair is long and brown.|Cut it all off, I have a short bob now.", "How do I wear my hair?", "short bob", "long and brown"),
    (3, "Our startup's burn rate is 90k a month.|We cut the burn rate to 60k a month.", "What is our burn rate?", "60k", "90k"),
    (1, "My shift starts at 7am.|From next week my shift starts at 3pm.", "When does my shift start?", "3pm", "7am"),
    (1, "I'm training for a half marathon.|Scrapped the half marathon plan, training for a sprint triathlon instead.", "What am I training for?", "triathlon", "half marathon"),
    (3, "The head chef at Olive & Thyme is Marco.|Marco left Olive & Thyme, their head chef is now Ines.", "Who is the head chef at Olive & Thyme?", "Ines", "Marco"),
    (1, "My doctor is Dr. Brandt at the Westside clinic.|I changed my GP to Dr. Mensah.", "Who is my doctor?", "Mensah", "Brandt"),
    (1, "The password for the shared drive is Orca!2023.|Shared drive password got rotated: Walrus#77.", "What is the shared drive password?", "Walrus#77", "Orca!2023"),
    (1, "I rent a studio in Brooklyn.|A:How's the Brooklyn studio?|I actually moved out, I'm in a two-bedroom in Queens now.", "Where do I live?", "Queens", "Brooklyn"),
    (3, "My dad drives a Ford Focus.|Dad traded the Focus in for a Toyota RAV4.", "What car does my dad drive?", "RAV4", "Focus"),
    (1, "I'm on the night team at the warehouse.|I'm on the day team at the warehouse now.", "Which team am I on at the warehouse?", "day team", "night team"),
    (1, "My blood pressure target is under 140.|My cardiologist lowered my target to under 130.", "What is my blood pressure target?", "130", "140"),
    (3, "The Standard room at the hotel is 110 a night.|Hotel emailed that the Standard room now costs 135 a night.", "How much is the Standard room?", "135", "110"),
    (1, "Our wedding is planned for June 14.|We pushed the wedding back to September 20.", "When is our wedding?", "September 20", "June 14"),
    (1, "I'm studying for the CPA exam.|A:How's CPA prep?|I withdrew from the CPA, I'm doing a CFA level 1 instead.", "Which exam am I studying for?", "CFA", "CPA exam"),
    (3, "Lena is pregnant, due in March.|Lena had the baby, a boy named Theo.", "What is Lena's status?", "had the baby", "due in March"),
    (1, "My favourite band is Radiohead.|Honestly my favourite band these days is Khruangbin.", "What is my favourite band?", "Khruangbin", "Radiohead"),
    (1, "I commute by car.|I sold the car, I commute by bike now.", "How do I commute?", "by bike", "by car"),
    (3, "The coach of our football team is Mr. Haas.|Haas resigned, our coach is now Ms. Idowu.", "Who coaches our football team?", "Idowu", "Haas"),
    (1, "My PIN for the door is 2468.|Door PIN changed to 9135.", "What is the door PIN?", "9135", "2468"),
    (1, "The kids' pickup time is 3:15.|School changed dismissal, pickup is at 2:45 now.", "When is the kids' pickup?", "2:45", "3:15"),
    (3, "Our biggest client is Halvorsen Shipping.|Halvorsen left us; Greyline Logistics is our biggest client now.", "Who is our biggest client?", "Greyline", "Halvorsen"),
    (1, "I'm a nurse at St. Mary's.|I left nursing and work as a UX researcher now.", "What do I do for work?", "UX researcher", "nurse"),
    (1, "I drink my coffee with milk and two sugars.|Cut the sugar, I take my coffee black now.", "How do I take my coffee?", "black", "two sugars"),
    (3, "Raj's office is in room 204.|Raj moved to room 317.", "Which room is Raj's office?", "317", "204"),
    (1, "My insurance provider is Allianz.|Switched my health insurance to Techniker this year.", "Who is my health insurer?", "Techniker", "Allianz"),
    (1, "The car's next service is due in October.|The garage said the next service is due in February.", "When is the car's next service?", "February", "October"),
    (1, "I'm a Manchester United fan.|After all these years I switched to supporting Brighton.", "Which football team do I support?", "Brighton", "Manchester United"),
    (3, "The CEO of Norrland Energy is Sofia Berg.|Norrland Energy appointed Anders Holm as CEO after Berg stepped down.", "Who is the CEO of Norrland Energy?", "Anders Holm", "Sofia Berg"),
    (1, "I'm allergic to nothing, as far as I know.|Turns out I do have a penicillin allergy, found out at the hospital.", "Do I have any allergies?", "penicillin", "allergic to nothing"),
    (1, "My cat is called Mochi.|We renamed the cat Biscuit, Mochi didn't suit her.", "What is my cat called?", "Biscuit", "Mochi"),
    (1, "I'm working remotely full time.|A:Still fully remote?|No, we're back in the office three days a week.", "Do I work remotely?", "three days a week", "remotely full time"),
    (3, "My grandmother lives in a house in Porto.|Grandma moved into a care home in Braga.", "Where does my grandmother live?", "Braga", "Porto"),
    (1, "My Spotify plan is the Family plan.|Downgraded Spotify to the Individual plan.", "Which Spotify plan do I have?", "Individual", "Family plan"),
    (1, "My passport expires in 2025.|Renewed my passport, it's valid until 2035 now.", "When does my passport expire?", "2035", "2025"),
    (3, "Our Slack channel for releases is #ship-it.|Releases are announced in #release-train from now on.", "Which Slack channel announces releases?", "#release-train", "#ship-it"),
    (1, "I sleep about six hours a night.|Lately I'm getting a solid eight hours.", "How much do I sleep?", "eight hours", "six hours"),
    (1, "I bank my savings in a fixed deposit at 2.1%.|The fixed deposit rate went up to 3.4%.", "What interest rate does my fixed deposit pay?", "3.4%", "2.1%"),
    (3, "My son plays the violin.|My son gave up violin and plays the drums now.", "Which instrument does my son play?", "drums", "violin"),
    (1, "My apartment number is 4B.|They moved us to unit 7F while they fix the leak, and we're staying there.", "What is my apartment number?", "7F", "4B"),
    (1, "My budget for the new laptop is 1,200 dollars.|I'm raising my laptop budget to 1,800 dollars.", "What is my laptop budget?", "1,800", "1,200"),
    (3, "The Friday standup is at 9:30.|Friday standup got moved to 9:00 sharp.", "When is the Friday standup?", "9:00", "9:30"),
    (1, "I'm on a keto diet.|I dropped keto; I'm doing Mediterranean-style eating now.", "What diet am I on?", "Mediterranean", "keto"),
    (1, "My username on the forum is quietfox.|Forum admin changed my username to northwind_k.", "What is my forum username?", "northwind_k", "quietfox"),
    (3, "Jamal is a sergeant.|Jamal was promoted to lieutenant in June.", "What is Jamal's rank?", "lieutenant", "sergeant"),
    (1, "My contract ends on December 31.|They extended my contract until June 30 next year.", "When does my contract end?", "June 30", "December 31"),
    (1, "I'm reading Dune right now.|Finished Dune, now I'm reading The Left Hand of Darkness.", "What book am I reading?", "Left Hand of Darkness", "Dune"),
    (3, "Our release version is 2.3.|We shipped 2.4 today, that's the current release.", "What is our current release version?", "2.4", "2.3"),
    (1, "The meeting room for the offsite is Oak.|A:Is the offsite still in Oak?|No, Oak was double-booked; we're in the Cedar room.", "Which room is the offsite in?", "Cedar", "Oak"),
    (1, "My cholesterol is 240.|Latest blood test: cholesterol down to 195.", "What is my cholesterol level?", "195", "240"),
    (3, "My neighbour Carl is a taxi driver.|Carl retired from driving taxis last month.", "What does my neighbour Carl do?", "retired", "taxi driver"),
    (1, "I'm renting the car until Friday.|I extended the rental car to next Wednesday.", "Until when do I have the rental car?", "Wednesday", "Friday"),
    (1, "The garage door code is 5511.|Changed the garage door code: 8062.", "What is the garage door code?", "8062", "5511"),
    (3, "The mayor of our town is Ms. Grant.|Ms. Grant lost the election; Mr. Oyelaran is mayor now.", "Who is the mayor of our town?", "Oyelaran", "Grant"),
    (1, "I'm learning Italian on Duolingo.|A:Still doing Italian?|I stopped Italian; now I'm doing Korean with a tutor.", "Which language am I learning?", "Korean", "Italian"),
    (1, "My laptop runs Windows 10.|Wiped it and installed Fedora Linux.", "What OS does my laptop run?", "Fedora", "Windows 10"),
    (3, "Our product manager is Chloe.|Chloe moved to the growth team; Ivan is our PM now.", "Who is our product manager?", "Ivan", "Chloe"),
    (1, "The wedding venue is Hillcrest Barn.|We cancelled Hillcrest Barn and booked Lakeview Pavilion.", "What is our wedding venue?", "Lakeview", "Hillcrest"),
    (1, "My home address is 12 Elm Road, Leeds.|I moved to 48 Quarry Lane, still in Leeds.", "What is my home address?", "48 Quarry Lane", "12 Elm Road"),
    (1, "My electricity plan is with Octopus at 28p per kWh.|The unit rate dropped to 24p per kWh.", "What is my electricity unit rate?", "24p", "28p"),
    (3, "My cousin Ana is a student.|Ana graduated and now works as an architect.", "What does my cousin Ana do?", "architect", "student"),
    (1, "My current project is the billing migration.|I got pulled off billing; I'm on the search relevance project now.", "Which project am I on?", "search relevance", "billing migration"),
    (1, "My daily step goal is 8,000.|Bumped my step goal to 12,000.", "What is my daily step goal?", "12,000", "8,000"),
    (3, "The president of the chess club is Aaron.|The chess club elected Nadia president.", "Who is the chess club president?", "Nadia", "Aaron"),
    (1, "I'm still married to Greg.|Greg and I finalised the divorce in May.", "Am I married?", "divorce", "married to Greg"),
    (1, "My preferred airline is Lufthansa.|After the lost luggage fiasco I fly KLM whenever I can.", "Which airline do I prefer?", "KLM", "Lufthansa"),
    (1, "I play in a five-a-side league on Mondays.|A:Still doing Monday five-a-side?|The league moved to Wednesday nights.", "Which night is my five-a-side league?", "Wednesday", "Mondays"),
    (3, "Our server runs PostgreSQL 13.|We upgraded the server to PostgreSQL 16.", "Which PostgreSQL version runs on our server?", "PostgreSQL 16", "PostgreSQL 13"),
    (1, "My running shoe size is 42.|New running shoes are 43, my feet apparently grew.", "What is my running shoe size?", "43", "42"),
    (1, "I'm the treasurer of the tenants' association.|Stepped down as treasurer, I'm now the secretary.", "What is my role in the tenants' association?", "secretary", "treasurer"),
    (3, "My aunt's phone number is 555-0143.|Aunt Rosa got a new number: 555-0198.", "What is my aunt's phone number?", "555-0198", "555-0143"),
    (1, "I eat lunch at noon.|I moved lunch to 1:30 because of the new meeting schedule.", "When do I eat lunch?", "1:30", "noon"),
    (1, "My pharmacist is at Rowan Pharmacy.|A:Which pharmacy do you use these days?|I switched to the Boots by the station.", "Which pharmacy do I use?", "Boots", "Rowan"),
    (3, "Tariq lives with his parents.|Tariq finally got his own place near the river.", "Where does Tariq live?", "his own place", "with his parents"),
    (1, "I'm on the 6:40 train every morning.|They cancelled the 6:40, so I take the 7:05 now.", "Which train do I take in the morning?", "7:05", "6:40"),
    (1, "My preferred name tag says 'Dr. Wu'.|Please call me Professor Wu, I was promoted.", "How should I be addressed?", "Professor Wu", "'Dr. Wu'"),
    (3, "The dog's vet is Dr. Klein.|We take the dog to the Pawsitive clinic now, Dr. Klein retired.", "Who is the dog's vet?", "Pawsitive", "Dr. Klein"),
    (1, "I'm subscribed to the Times.|Cancelled the Times, I read the Guardian online now.", "Which newspaper do I read?", "Guardian", "the Times"),
    (1, "My monthly data plan is 10 GB.|Upgraded my phone plan to unlimited data.", "How much mobile data do I have?", "unlimited", "10 GB"),
    (3, "Our QA lead is Brigitte.|Brigitte went on sabbatical and Oskar took over as QA lead.", "Who is our QA lead?", "Oskar", "Brigitte"),
    (1, "I'm a Catholic.|I converted and consider myself Buddhist now.", "What is my religion?", "Buddhist", "Catholic"),
    (1, "The book club meets at Hannah's place.|Book club moved to the library's reading room.", "Where does the book club meet?", "library", "Hannah's place"),
]

ZH_UPDATES = [
    (1, "我住在上海。|上个月我搬到杭州了。", "我现在住在哪里？", "杭州", "上海"),
    (1, "我家在朝阳区团结湖。|我们换了房子，还在北京，搬到了海淀区五道口。", "我家在哪个区？", "海淀", "朝阳"),
    (1, "我在腾讯做后端开发。|我跳槽去字节跳动了，下周一入职。", "我在哪家公司工作？", "字节跳动", "腾讯"),
    (1, "我的分机号是6021。|公司重新分配了分机，我的分机号现在是7359。", "我的分机号是多少？", "7359", "6021"),
    (3, "这款会员年费是198元。|会员年费涨到了258元。", "会员年费多少钱？", "258", "198"),
    (1, "我的签证还在审核中。|助手:签证有消息了吗？|昨天下来了，已经批准了。", "我的签证现在是什么状态？", "批准", "审核中"),
    (1, "我的直属领导是王磊。|组织架构调整后，我改向刘芳汇报了。", "我的领导是谁？", "刘芳", "王磊"),
    (1, "我男朋友叫陈浩。|我和陈浩分手了，现在的男朋友叫周宇。", "我男朋友是谁？", "周宇", "陈浩"),
    (1, "我的手机号是13812345678。|我换号了，新号码是15987654321。", "我的手机号是多少？", "15987654321", "13812345678"),
    (1, "家里的无线密码是abc12345。|我把家里无线密码改成了moon2024!。", "家里无线密码是什么？", "moon2024!", "abc12345"),
    (1, "我的车牌号是沪A·5K321。|搬到苏州以后车转籍了，车牌号现在是苏E·8M776。", "我的车牌号是多少？", "苏E·8M776", "沪A·5K321"),
    (1, "论文截止日期是3月15日。|导师说论文截止日期推迟到4月30日了。", "我的论文什么时候截止？", "4月30日", "3月15日"),
    (3, "印度尼西亚的首都是雅加达。|印尼已经把首都迁到了努山塔拉。", "印度尼西亚的首都是哪里？", "努山塔拉", "雅加达"),
    (3, "我们公司的CTO是赵敏。|赵敏离职了，我们的CTO现在是孙立。", "我们公司的CTO是谁？", "孙立", "赵敏"),
    (3, "小美的老公是李强。|小美和李强离婚了，去年又嫁给了一个叫吴凡的人。", "小美的老公是谁？", "吴凡", "李强"),
    (1, "我每天抽一包烟。|我今年一月戒烟了，到现在一根都没抽。", "我抽烟吗？", "戒烟", "一包烟"),
    (1, "我吃素。|我现在不吃素了，又开始吃鱼和鸡肉。", "我吃素吗？", "不吃素", "我吃素。"),
    (1, "我每天喝三杯咖啡。|助手:最近咖啡还喝得多吗？|我已经完全戒了咖啡，现在只喝花草茶。", "我每天喝多少咖啡？", "戒了咖啡", "三杯咖啡"),
    (3, "我姐姐住在成都。|我姐姐因为姐夫工作调动搬去了重庆。", "我姐姐住在哪里？", "重庆", "成都"),
    (3, "老张在中国银行上班。|老张从中国银行辞职了，去了一家叫云帆科技的创业公司。", "老张在哪里工作？", "云帆科技", "中国银行"),
    (1, "我在中山路那家威尔士健身。|我换健身房了，现在去乐刻。", "我在哪家健身房锻炼？", "乐刻", "威尔士"),
    (1, "我开的是一辆2012年的本田思域。|思域卖了，换了一辆二手的大众帕萨特。", "我开什么车？", "帕萨特", "思域"),
    (1, "我的房租是每月4500元。|房东把房租涨到了每月5200元。", "我的房租是多少？", "5200", "4500"),
    (1, "我的邮箱是xiaoli@163.com。|以后请用我的新邮箱lixiao.work@qq.com。", "我的邮箱地址是什么？", "lixiao.work@qq.com", "xiaoli@163.com"),
    (1, "我是一名初级设计师。|这周我升职成高级设计师了。", "我的职位是什么？", "高级设计师", "初级设计师"),
    (1, "我的牙医是黄医生。|助手:你还在找黄医生看牙吗？|没有了，我换成了离公司近的林医生。", "我的牙医是谁？", "林医生", "黄医生"),
    (1, "我每天早上吃10毫克的氨氯地平。|医生把我的氨氯地平加到了每天20毫克。", "我吃多少毫克氨氯地平？", "20毫克", "10毫克"),
    (1, "我们组的周会在周二上午十点。|周会改到周四下午两点了。", "我们组的周会是什么时候？", "周四", "周二"),
    (1, "我现在单身。|周末我和小林订婚啦！", "我的感情状况是什么？", "订婚", "单身"),
    (1, "我们办公室在望京SOHO的3楼。|我们办公室搬到了11楼。", "我们办公室在几楼？", "11楼", "3楼"),
    (3, "我弟弟在武汉大学读法学。|我弟弟从法学转到了临床医学专业。", "我弟弟学什么专业？", "临床医学", "读法学"),
    (1, "我储物柜的密码是3927。|我把储物柜密码重置成了8046。", "我储物柜的密码是多少？", "8046", "3927"),
    (3, "天枢项目的负责人是小陈。|小陈把天枢项目交给了老郑，现在老郑负责。", "天枢项目现在谁负责？", "老郑", "小陈"),
    (1, "我去广州的航班是5月4日。|助手:去广州还是5月4日出发吗？|航空公司把我改签到了5月6日。", "我去广州的航班是哪天？", "5月6日", "5月4日"),
    (1, "我用的是小米11。|上周换了华为Mate 60。", "我用的是什么手机？", "Mate 60", "小米11"),
    (1, "我的工资卡在工商银行。|工资卡换成招商银行了，工行那张已经销户。", "我的工资卡在哪个银行？", "招商银行", "工商银行"),
    (3, "我们的房东是钱阿姨。|房子卖掉了，新房东是一位姓马的先生。", "我们的房东是谁？", "姓马", "钱阿姨"),
    (1, "我体重82公斤。|这个夏天减到了76公斤！", "我体重多少？", "76公斤", "82公斤"),
    (1, "我的微信号是xiaoyu_88。|我把微信号改成了yu_studio了。", "我的微信号是什么？", "yu_studio", "xiaoyu_88"),
    (3, "我女儿在实验小学上学。|我女儿今年秋天升入了育才中学。", "我女儿在哪所学校？", "育才中学", "实验小学"),
    (1, "我年薪是25万。|涨薪之后我年薪32万了。", "我的年薪是多少？", "32万", "25万"),
    (1, "我一般早上六点半起床。|助手:还是早起吗？|不是了，最近都八点左右才起。", "我几点起床？", "八点", "六点半"),
    (1, "我的心理咨询师是徐老师。|我不再找徐老师了，换了一位新的咨询师，姓欧阳。", "我的心理咨询师是谁？", "欧阳", "徐老师"),
    (1, "我留的是长发。|我把头发剪短了，现在是齐耳短发。", "我现在是什么发型？", "短发", "长发"),
    (3, "我们公司每月烧钱大概90万。|我们把每月开销压到了60万。", "我们公司每月烧多少钱？", "60万", "90万"),
    (1, "我每天早上七点上班。|从下周开始我改上下午三点的班。", "我几点上班？", "三点", "七点"),
    (1, "我在准备半程马拉松。|半马不跑了，改练铁人三项。", "我在为什么比赛训练？", "铁人三项", "半程马拉松"),
    (3, "楼下那家湘菜馆的主厨是老罗。|老罗走了，湘菜馆现在的主厨是阿芳。", "湘菜馆的主厨是谁？", "阿芳", "老罗"),
    (1, "我的家庭医生是社区医院的郭大夫。|我把家庭医生换成了程大夫。", "我的家庭医生是谁？", "程大夫", "郭大夫"),
    (1, "共享网盘的密码是Orca2023。|共享网盘密码换了：Panda#77。", "共享网盘的密码是什么？", "Panda#77", "Orca2023"),
    (1, "我在浦东租了一间一室户。|助手:浦东的房子住得怎么样？|我已经搬走了，现在在闵行租了两室一厅。", "我住在哪里？", "闵行", "浦东"),
    (3, "我爸开的是一辆桑塔纳。|我爸把桑塔纳卖了，换了辆比亚迪。", "我爸开什么车？", "比亚迪", "桑塔纳"),
    (1, "我在仓库上夜班。|我现在调到仓库白班了。", "我在仓库上什么班？", "白班", "夜班"),
    (3, "酒店标准间一晚380元。|酒店通知标准间涨到一晚450元了。", "酒店标准间多少钱一晚？", "450", "380"),
    (1, "我们的婚礼定在6月14日。|婚礼推迟到了9月20日。", "我们的婚礼是哪天？", "9月20日", "6月14日"),
    (1, "我在备考注册会计师。|助手:注会复习得怎么样？|注会我放弃了，改考法律职业资格证。", "我在准备什么考试？", "法律职业资格", "注册会计师"),
    (3, "小雨怀孕了，预产期在三月。|小雨生了，是个男孩，叫乐乐。", "小雨现在怎么样了？", "生了", "预产期"),
    (1, "我最喜欢的歌手是周杰伦。|说实话，我现在最喜欢的歌手是毛不易。", "我最喜欢的歌手是谁？", "毛不易", "周杰伦"),
    (1, "我每天开车上班。|车卖了，现在骑电动车上班。", "我怎么上班？", "电动车", "开车"),
    (3, "我们足球队的教练是韩指导。|韩指导辞职了，现在的教练是孔指导。", "我们足球队的教练是谁？", "孔指导", "韩指导"),
    (1, "门禁密码是2468。|门禁密码改成9135了。", "门禁密码是多少？", "9135", "2468"),
    (1, "孩子放学是三点一刻接。|学校调整了放学时间，现在两点四十五接。", "孩子几点放学接？", "两点四十五", "三点一刻"),
    (3, "我们最大的客户是海岳物流。|海岳物流不跟我们合作了，现在最大的客户是中远。", "我们最大的客户是谁？", "中远", "海岳物流"),
    (1, "我在市一医院当护士。|我已经不当护士了，现在做用户研究。", "我做什么工作？", "用户研究", "当护士"),
    (3, "老冯的办公室在204室。|老冯搬到317室了。", "老冯的办公室在哪个房间？", "317", "204"),
    (1, "我的医保在北京交的。|我的社保转到深圳了，今年开始在深圳交。", "我的社保在哪里交？", "深圳", "北京交"),
    (1, "我是曼联球迷。|这么多年了，我现在改支持利物浦了。", "我支持哪支球队？", "利物浦", "曼联"),
    (3, "北辰能源的总经理是沈静。|沈静卸任后，北辰能源任命了杜衡为总经理。", "北辰能源的总经理是谁？", "杜衡", "沈静"),
    (1, "我家的猫叫年糕。|我们给猫改名叫饼干了，年糕这个名字不太适合她。", "我家的猫叫什么？", "饼干", "叫年糕"),
    (1, "我现在完全居家办公。|助手:还是全职远程吗？|不是了，现在每周要去公司三天。", "我是远程办公吗？", "每周要去公司三天", "完全居家办公"),
    (3, "我奶奶住在绍兴老家。|奶奶搬去了宁波的一家养老院。", "我奶奶住在哪里？", "宁波", "绍兴"),
    (1, "我的护照2025年到期。|护照换新了，有效期到2035年。", "我的护照什么时候到期？", "2035", "2025"),
    (1, "我一晚上大概睡六个小时。|最近我能睡够八个小时了。", "我每天睡多久？", "八个小时", "六个小时"),
    (1, "我的定期存款利率是2.1%。|定期利率上调到了2.6%。", "我的定期存款利率是多少？", "2.6%", "2.1%"),
    (3, "我儿子在学小提琴。|我儿子不学小提琴了，改学架子鼓。", "我儿子学什么乐器？", "架子鼓", "在学小提琴"),
    (1, "我家门牌号是4单元502。|因为漏水我们换到了7单元1101，以后就住这了。", "我家门牌号是多少？", "7单元1101", "4单元502"),
    (1, "买新电脑的预算是8000元。|我把买电脑的预算提高到了12000元。", "我买电脑的预算是多少？", "12000", "8000"),
    (3, "周五的站会是九点半。|周五站会提前到九点整了。", "周五站会几点？", "九点整", "九点半"),
    (1, "我在生酮饮食。|生酮不搞了，现在改成地中海饮食。", "我现在是什么饮食方式？", "地中海", "生酮饮食"),
    (3, "大刘是中尉。|大刘六月份晋升为上尉了。", "大刘是什么军衔？", "上尉", "中尉"),
    (1, "我的合同12月31日到期。|公司把我的合同续到了明年6月30日。", "我的合同什么时候到期？", "6月30日", "12月31日"),
    (1, "我最近在读《三体》。|《三体》读完了，现在在读《活着》。", "我在读什么书？", "《活着》", "《三体》"),
    (3, "我们的产品版本是2.3。|今天发布了2.4版，这是现在的正式版本。", "我们现在的产品版本是多少？", "2.4", "2.3"),
    (1, "团建的会议室定在松间厅。|助手:团建还在松间厅吗？|松间厅被重复预订了，改到了竹韵厅。", "团建在哪个会议室？", "竹韵厅", "松间厅"),
    (1, "我的胆固醇是6.2。|最新体检胆固醇降到了5.1。", "我的胆固醇是多少？", "5.1", "6.2"),
    (3, "隔壁老王是出租车司机。|老王上个月退休了，不开出租了。", "隔壁老王做什么？", "退休", "出租车司机"),
    (1, "租的车周五还。|租车我续到了下周三。", "租的车什么时候还？", "下周三", "周五还"),
    (3, "我们镇的镇长是高女士。|高女士落选了，现在的镇长是欧先生。", "我们镇的镇长是谁？", "欧先生", "高女士"),
    (1, "我在用多邻国学意大利语。|助手:意大利语还在学吗？|意大利语停了，现在跟老师学韩语。", "我在学什么语言？", "韩语", "意大利语"),
    (1, "我的笔记本装的是Windows 10。|我重装成了Ubuntu。", "我的笔记本是什么系统？", "Ubuntu", "Windows 10"),
    (3, "我们的产品经理是小琪。|小琪调去增长组了，现在我们的产品经理是阿凯。", "我们的产品经理是谁？", "阿凯", "小琪"),
    (1, "婚礼场地订在山顶庄园。|山顶庄园退掉了，改订了湖畔酒店。", "我们的婚礼场地在哪？", "湖畔酒店", "山顶庄园"),
    (1, "我家住在南京路12号。|我搬到了同一个城市的清凉路48号。", "我家地址是什么？", "清凉路48号", "南京路12号"),
    (1, "我家电费是每度0.62元。|电费调到了每度0.58元。", "我家电费每度多少钱？", "0.58", "0.62"),
    (3, "我表妹小安还在上学。|小安毕业了，现在是一名建筑师。", "我表妹小安做什么？", "建筑师", "上学"),
    (1, "我现在负责计费系统迁移。|我被调离了计费项目，现在做搜索相关性。", "我在做哪个项目？", "搜索相关性", "计费系统迁移"),
    (1, "我每天的步数目标是八千步。|我把步数目标提高到一万二了。", "我每天的步数目标是多少？", "一万二", "八千步"),
    (3, "象棋社的社长是阿伟。|象棋社选了娜娜当社长。", "象棋社社长是谁？", "娜娜", "阿伟"),
    (1, "我已婚，老公叫志刚。|我和志刚五月份办完了离婚手续。", "我结婚了吗？", "离婚", "已婚"),
    (1, "我坐飞机一般选国航。|上次行李丢了以后，我能选东航就选东航。", "我坐飞机喜欢哪家航空公司？", "东航", "国航"),
    (1, "我每周一晚上踢五人制。|助手:周一的五人制还踢吗？|联赛改到周三晚上了。", "我的五人制比赛是周几？", "周三", "周一"),
    (3, "我们服务器用的是PostgreSQL 13。|服务器已经升级到PostgreSQL 16了。", "我们服务器用的PostgreSQL是哪个版本？", "PostgreSQL 16", "PostgreSQL 13"),
    (1, "我穿42码的跑鞋。|新跑鞋买的43码，脚好像变大了。", "我穿多大码的跑鞋？", "43码", "42码"),
    (1, "我是业主委员会的财务。|我卸任了财务，现在是业委会秘书。", "我在业委会担任什么职务？", "秘书", "财务"),
    (3, "我小姨的电话是13911112222。|小姨换了新号码：13733334444。", "我小姨的电话是多少？", "13733334444", "13911112222"),
    (1, "我中午十二点吃午饭。|因为开会时间调整，我改到一点半吃午饭了。", "我几点吃午饭？", "一点半", "十二点"),
    (1, "我常去的药店是老百姓大药房。|助手:最近去哪家药店买药？|我换到地铁站旁边的益丰大药房了。", "我常去哪家药店？", "益丰", "老百姓"),
    (3, "阿杰跟他爸妈住在一起。|阿杰终于在江边租了自己的房子。", "阿杰住在哪里？", "自己的房子", "跟他爸妈住"),
    (1, "我每天早上坐6点40的高铁。|6点40那班取消了，我现在坐7点05的。", "我早上坐哪班车？", "7点05", "6点40"),
    (3, "狗狗看病一直找宠物医院的孟医生。|孟医生退休了，我们现在带狗去瑞鹏宠物医院。", "我们家狗在哪看病？", "瑞鹏", "孟医生"),
    (1, "我订了《南方周末》。|《南方周末》退订了，现在在网上看《财新》。", "我看什么报刊？", "财新", "南方周末"),
    (1, "我的手机套餐每月10G流量。|我把手机套餐升级成了无限流量。", "我每个月有多少流量？", "无限流量", "10G"),
    (3, "我们的测试负责人是宝珠。|宝珠休长假了，测试负责人换成了奥斯卡。", "我们的测试负责人是谁？", "奥斯卡", "宝珠"),
    (1, "读书会在汉娜家办。|读书会搬到了图书馆的阅览室。", "读书会在哪里办？", "图书馆", "汉娜家"),
    (1, "我的花呗额度是5000。|花呗额度提到了8000。", "我的花呗额度是多少？", "8000", "5000"),
    (3, "我们小区的物业是万科物业。|业主大会投票换了物业，现在是碧桂园服务。", "我们小区的物业公司是哪家？", "碧桂园", "万科"),
    (1, "我的身份证地址还是老家的。|助手:身份证地址改了吗？|改了，迁到了现在住的天河区。", "我的身份证地址在哪里？", "天河区", "老家"),
    (1, "我的英语老师是Emma。|Emma回国了，现在教我英语的是David。", "我的英语老师是谁？", "David", "Emma"),
    (3, "我侄子在读高三。|我侄子已经考上大学了，在读大一。", "我侄子在读几年级？", "大一", "高三"),
    (1, "快递都寄到公司前台。|以后快递都寄到小区的丰巢柜，公司前台不收了。", "我的快递寄到哪里？", "丰巢", "公司前台"),
    (1, "我用的输入法是搜狗。|我换成微信输入法了。", "我用什么输入法？", "微信输入法", "搜狗"),
    (3, "班主任是刘老师。|开学后班主任换成了何老师。", "班主任是谁？", "何老师", "刘老师"),
    (1, "我还在吃二甲双胍。|医生让我停了二甲双胍，改打胰岛素了。", "我现在用什么降糖药？", "胰岛素", "还在吃二甲双胍"),
]

# three-step sequences: the last value is current, the one before it is stale
EN_SEQUENCES = [
    (1, "I live in Austin.|We moved to Denver in the spring.|Another move: we're in Seattle now.", "Which city do I live in?", "Seattle", "Denver"),
    (1, "My manager is Lisa.|Lisa left, my manager is Tom now.|Tom got promoted, I report to Aisha.", "Who do I report to?", "Aisha", "Tom"),
    (3, "The Basic plan is $5 a month.|Basic went up to $7.|They raised Basic again, it's $9 now.", "How much is the Basic plan?", "$9", "$7"),
    (1, "My number is 0711 200 300.|New number: 0711 555 010.|Sorry, changed again: 0160 889 2211.", "What is my phone number?", "0160 889 2211", "0711 555 010"),
]
ZH_SEQUENCES = [
    (1, "我住在长沙。|今年春天搬到了武汉。|又搬家了，现在在南昌。", "我住在哪个城市？", "南昌", "武汉"),
    (3, "我们部门经理是老周。|老周调走了，现在经理是小何。|小何升职去总部了，部门经理换成了阿兰。", "我们部门经理是谁？", "阿兰", "小何"),
    (1, "健身卡年费1999。|续费涨到2299了。|今年又涨了，2599。", "健身卡年费多少？", "2599", "2299"),
    (1, "我的邮箱密码是qwer1234。|邮箱密码改成了lake@2023。|又改了一次，现在是Pine#808。", "我的邮箱密码是什么？", "Pine#808", "lake@2023"),
]

# additions to a multi-valued relation: (person, turns, question, current = the new value, earlier values ";")
EN_MULTI = [
    (1, "I'm allergic to peanuts.|The allergist found I'm also allergic to shellfish.", "What am I allergic to?", "shellfish", "peanuts"),
    (1, "I love hiking.|Lately I've also gotten into bouldering.", "What are my hobbies?", "bouldering", "hiking"),
    (1, "I have a son, Leo.|We just welcomed our second child, a girl named Ava!", "What are my children's names?", "Ava", "Leo"),
    (1, "I speak English and German.|I've become fluent in Spanish too after two years in Valencia.", "Which languages do I speak?", "Spanish", "English;German"),
    (1, "I like jazz.|I've been listening to a lot of Afrobeat as well.", "What music do I like?", "Afrobeat", "jazz"),
    (3, "My sister is allergic to cats.|My sister turns out to be allergic to birch pollen as well.", "What is my sister allergic to?", "birch pollen", "cats"),
    (1, "I play the guitar.|A:Any other instruments?|Yes, I play the cello too.", "Which instruments do I play?", "cello", "guitar"),
    (1, "We have a dog named Pepper.|We adopted a cat last week, she's called Olive.", "What pets do we have?", "Olive", "Pepper"),
    (3, "Tom speaks French.|Tom picked up Portuguese while working in Recife.", "Which languages does Tom speak?", "Portuguese", "French"),
    (1, "I enjoy Thai food.|I'm also really into Ethiopian food these days.", "Which cuisines do I like?", "Ethiopian", "Thai"),
    (1, "I collect vintage stamps.|I started collecting old vinyl records as well.", "What do I collect?", "vinyl records", "vintage stamps"),
    (1, "I'm lactose intolerant.|My doctor says I'm also gluten sensitive.", "What food intolerances do I have?", "gluten", "lactose"),
    (3, "Mei has a daughter called Lily.|Mei's twins were born in April, Max and Ruby.", "Who are Mei's children?", "Ruby", "Lily"),
    (1, "I volunteer at the food bank.|I've also started volunteering at the animal shelter on Sundays.", "Where do I volunteer?", "animal shelter", "food bank"),
    (1, "I'm a fan of the Lakers.|I also follow the Seattle Storm closely.", "Which teams do I follow?", "Seattle Storm", "Lakers"),
    (1, "My favourite authors include Ursula Le Guin.|Add Octavia Butler to my favourite authors.", "Who are my favourite authors?", "Octavia Butler", "Ursula Le Guin"),
    (3, "My brother has a degree in physics.|My brother finished a second degree, in economics.", "What degrees does my brother have?", "economics", "physics"),
    (1, "I take vitamin D daily.|I added magnesium to my daily supplements.", "Which supplements do I take?", "magnesium", "vitamin D"),
    (1, "I've visited Japan.|Just got back from Peru, my first time there!", "Which countries have I visited?", "Peru", "Japan"),
    (1, "I'm certified in AWS.|Passed the Kubernetes CKA exam today.", "Which certifications do I have?", "CKA", "AWS"),
    (3, "Our team uses Python.|A:Anything besides Python?|We also write a lot of Go for the services.", "Which programming languages does our team use?", "Go for the services", "Python"),
    (1, "I can't stand cilantro.|I also really dislike olives.", "Which foods do I dislike?", "olives", "cilantro"),
    (1, "My grandson Ethan is five.|My daughter just had another boy, Noah.", "What are my grandsons' names?", "Noah", "Ethan"),
    (1, "I have a Netflix subscription.|Signed up for Disney+ as well for the kids.", "Which streaming services do I subscribe to?", "Disney+", "Netflix"),
    (3, "Grandpa takes metformin.|Grandpa was also prescribed atorvastatin.", "Which medications does grandpa take?", "atorvastatin", "metformin"),
    (1, "I like watching tennis.|I've also started watching Formula 1 with my dad.", "Which sports do I watch?", "Formula 1", "tennis"),
    (1, "I'm a member of the chess club.|I also joined the city choir this month.", "Which clubs am I a member of?", "choir", "chess club"),
    (3, "Ana is allergic to penicillin.|Ana also reacts badly to ibuprofen.", "Which drugs is Ana allergic to?", "ibuprofen", "penicillin"),
    (1, "I grow tomatoes on my balcony.|This year I planted chilli peppers next to them.", "What do I grow on my balcony?", "chilli peppers", "tomatoes"),
    (1, "I know SQL.|I've been learning Rust in the evenings and can use it at work now.", "Which programming languages do I know?", "Rust", "SQL"),
    (3, "Our office has a branch in Dublin.|We opened a second branch in Kraków.", "Where does our company have branches?", "Kraków", "Dublin"),
    (1, "I'm scared of heights.|A:Any other fears?|Deep water scares me too.", "What am I afraid of?", "Deep water", "heights"),
]
ZH_MULTI = [
    (1, "我对花生过敏。|医生说我对虾也过敏。", "我对什么过敏？", "虾", "花生"),
    (1, "我喜欢爬山。|最近我还迷上了攀岩。", "我有哪些爱好？", "攀岩", "爬山"),
    (1, "我有一个儿子叫乐乐。|我们家二宝出生了，是个女儿，叫朵朵！", "我的孩子叫什么名字？", "朵朵", "乐乐"),
    (1, "我会说普通话和英语。|在西班牙待了两年，西班牙语我也能流利说了。", "我会说哪些语言？", "西班牙语", "普通话;英语"),
    (1, "我喜欢听爵士乐。|最近也常听民谣。", "我喜欢什么音乐？", "民谣", "爵士"),
    (3, "我妹妹对猫毛过敏。|我妹妹原来对桦树花粉也过敏。", "我妹妹对什么过敏？", "桦树花粉", "猫毛"),
    (1, "我会弹吉他。|助手:还会别的乐器吗？|会，我还会拉大提琴。", "我会哪些乐器？", "大提琴", "吉他"),
    (1, "我们家养了一只狗叫豆豆。|上周我们又领养了一只猫，叫橘子。", "我们家养了哪些宠物？", "橘子", "豆豆"),
    (3, "小王会说法语。|小王在巴西工作时学会了葡萄牙语。", "小王会哪些语言？", "葡萄牙语", "法语"),
    (1, "我爱吃川菜。|最近我也特别喜欢吃云南菜。", "我喜欢吃哪些菜系？", "云南菜", "川菜"),
    (1, "我收藏邮票。|我还开始收藏黑胶唱片了。", "我收藏什么？", "黑胶唱片", "邮票"),
    (1, "我乳糖不耐受。|医生说我对麸质也敏感。", "我有哪些食物不耐受？", "麸质", "乳糖"),
    (3, "阿美有一个女儿叫莉莉。|阿美四月生了一对双胞胎，叫大宝和小宝。", "阿美有哪些孩子？", "小宝", "莉莉"),
    (1, "我在食物银行做志愿者。|我周日还开始去流浪动物救助站做志愿者。", "我在哪里做志愿者？", "流浪动物救助站", "食物银行"),
    (1, "我是湖人队的球迷。|我也一直关注广东队。", "我关注哪些球队？", "广东队", "湖人"),
    (1, "我喜欢的作家有鲁迅。|把张爱玲也加到我喜欢的作家里。", "我喜欢哪些作家？", "张爱玲", "鲁迅"),
    (3, "我哥哥是物理学学士。|我哥哥又拿了一个经济学学位。", "我哥哥有哪些学位？", "经济学", "物理学"),
    (1, "我每天吃维生素D。|我又加了镁片作为每天的补充剂。", "我每天吃哪些补充剂？", "镁片", "维生素D"),
    (1, "我去过日本。|刚从秘鲁回来，第一次去！", "我去过哪些国家？", "秘鲁", "日本"),
    (1, "我有教师资格证。|今天我又考下了心理咨询师证。", "我有哪些证书？", "心理咨询师证", "教师资格证"),
    (3, "我们团队用Python。|助手:除了Python还用什么？|服务端我们也写很多Go。", "我们团队用哪些编程语言？", "Go", "Python"),
    (1, "我受不了香菜。|我也很讨厌吃苦瓜。", "我不喜欢吃什么？", "苦瓜", "香菜"),
    (1, "我外孙小宇五岁了。|我女儿又生了个儿子，叫小航。", "我的外孙叫什么？", "小航", "小宇"),
    (1, "我开了爱奇艺会员。|为了孩子又开了个腾讯视频会员。", "我开了哪些视频会员？", "腾讯视频", "爱奇艺"),
    (3, "爷爷在吃二甲双胍。|医生又给爷爷开了阿托伐他汀。", "爷爷在吃哪些药？", "阿托伐他汀", "二甲双胍"),
    (1, "我喜欢看网球比赛。|我也开始跟我爸一起看F1了。", "我喜欢看哪些体育比赛？", "F1", "网球"),
    (1, "我是象棋协会的会员。|这个月我还加入了市合唱团。", "我参加了哪些社团？", "合唱团", "象棋协会"),
    (3, "小安对青霉素过敏。|小安吃布洛芬也会过敏。", "小安对哪些药过敏？", "布洛芬", "青霉素"),
    (1, "我在阳台种西红柿。|今年我在旁边又种了辣椒。", "我在阳台种了什么？", "辣椒", "西红柿"),
    (1, "我会写SQL。|我晚上一直在学Rust，现在工作中也能用上了。", "我会哪些编程语言？", "Rust", "SQL"),
    (3, "我们公司在成都有分部。|我们在西安开了第二个分部。", "我们公司在哪些城市有分部？", "西安", "成都"),
    (1, "我恐高。|助手:还怕别的吗？|我也怕深水。", "我害怕什么？", "深水", "恐高"),
]

# restatements: (person, slot kind, turns, question, current = the value said both times, other strings to keep ";")
EN_RESTATE = [
    (1, "s", "I take 10 mg of lisinopril every morning.|Every morning I take 10 mg of lisinopril.", "What dose of lisinopril do I take?", "10 mg", "lisinopril"),
    (1, "s", "I live in Rotterdam.|Rotterdam is where I live.", "Where do I live?", "Rotterdam", ""),
    (1, "s", "I work for Philips.|My employer is Philips.", "Who do I work for?", "Philips", ""),
    (1, "s", "My extension is 3304.|A:What's your extension again?|It's 3304.", "What is my extension?", "3304", ""),
    (3, "s", "Our CTO is Grace Liu.|Grace Liu is our chief technology officer.", "Who is our CTO?", "Grace Liu", ""),
    (3, "s", "Mei's husband is Daniel.|Mei is married to Daniel.", "Who is Mei's husband?", "Daniel", ""),
    (1, "s", "My car plate is HH-LP 902.|The licence plate on my car reads HH-LP 902.", "What is my car's plate?", "HH-LP 902", ""),
    (1, "s", "The report is due on Friday.|Friday is the deadline for the report.", "When is the report due?", "Friday", ""),
    (3, "s", "The capital of Australia is Canberra.|Canberra is Australia's capital city.", "What is the capital of Australia?", "Canberra", ""),
    (1, "m", "I'm allergic to peanuts.|Peanuts give me an allergic reaction.", "What am I allergic to?", "Peanuts", ""),
    (1, "m", "I love playing badminton.|Badminton is something I really enjoy playing.", "What sports do I like?", "badminton", ""),
    (1, "s", "My manager is Olga.|A:Who's your manager these days?|Still Olga.", "Who is my manager?", "Olga", ""),
    (1, "s", "I drive a blue Volvo.|My car is a blue Volvo.", "What car do I drive?", "Volvo", ""),
    (3, "s", "My sister works as a pharmacist.|My sister is a pharmacist.", "What does my sister do?", "pharmacist", ""),
    (1, "s", "My phone number is 0612 334 889.|You can reach me on 0612 334 889.", "What is my phone number?", "0612 334 889", ""),
    (1, "s", "The Basic plan costs 9 euros a month.|It's 9 euros a month for the Basic plan.", "How much is the Basic plan?", "9 euros", ""),
    (1, "s", "I was born in Valparaíso.|Valparaíso is my hometown, I was born there.", "Where was I born?", "Valparaíso", ""),
    (1, "m", "I speak Dutch.|Dutch is one of the languages I speak.", "Which languages do I speak?", "Dutch", ""),
    (3, "s", "Raj's partner is called Meera.|Raj is in a relationship with Meera.", "Who is Raj's partner?", "Meera", ""),
    (1, "s", "I go to bed around 11pm.|Bedtime for me is usually about 11pm.", "When do I go to bed?", "11pm", ""),
    (1, "m", "My kids are Sara and Jonah.|I have two children, Jonah and Sara.", "What are my children's names?", "Jonah", "Sara"),
    (1, "s", "I'm a vegetarian.|I don't eat meat, I'm vegetarian.", "What is my diet?", "vegetarian", ""),
    (3, "s", "The team offsite is in Lisbon.|A:Where's the offsite again?|Lisbon, like I said.", "Where is the team offsite?", "Lisbon", ""),
    (1, "s", "My shoe size is 44.|I wear a size 44 shoe.", "What is my shoe size?", "44", ""),
    (1, "s", "I've been a teacher for 12 years.|I have 12 years of teaching behind me.", "How long have I been teaching?", "12 years", ""),
    (3, "s", "Our office wifi password is Heron!512.|For the office wifi, the password is Heron!512.", "What is the office wifi password?", "Heron!512", ""),
    (1, "m", "I like reading science fiction.|Science fiction is my favourite kind of book to read.", "What do I like to read?", "science fiction", ""),
    (1, "s", "I commute by train.|I take the train to work.", "How do I get to work?", "train", ""),
    (3, "s", "Dad's birthday is on 9 August.|My father was born on 9 August.", "When is Dad's birthday?", "9 August", ""),
    (1, "s", "My rent is 950 pounds a month.|I pay 950 pounds rent each month.", "How much is my rent?", "950", ""),
    (1, "s", "My flight to Oslo leaves at 7:45.|The Oslo flight departs at 7:45 in the morning.", "When does my Oslo flight leave?", "7:45", ""),
    (3, "s", "Our biggest supplier is Nordtek.|Nordtek supplies us more than anyone else.", "Who is our biggest supplier?", "Nordtek", ""),
]
ZH_RESTATE = [
    (1, "s", "我每天早上吃10毫克的氨氯地平。|每天早上我都吃氨氯地平，10毫克。", "我每天吃多少氨氯地平？", "10毫克", "氨氯地平"),
    (1, "s", "我住在厦门。|厦门是我住的地方。", "我住在哪里？", "厦门", ""),
    (1, "s", "我在美团上班。|我的工作单位是美团。", "我在哪里上班？", "美团", ""),
    (1, "s", "我的分机号是3304。|助手:你的分机号是多少来着？|3304。", "我的分机号是多少？", "3304", ""),
    (3, "s", "我们的CTO是刘畅。|刘畅是我们公司的首席技术官。", "我们的CTO是谁？", "刘畅", ""),
    (3, "s", "小美的老公是大卫。|小美嫁给了大卫。", "小美的老公是谁？", "大卫", ""),
    (1, "s", "我的车牌号是京N·3A902。|我车的牌照是京N·3A902。", "我的车牌号是多少？", "京N·3A902", ""),
    (1, "s", "报告周五交。|周五是报告的截止日。", "报告什么时候交？", "周五", ""),
    (3, "s", "澳大利亚的首都是堪培拉。|堪培拉是澳大利亚的首都。", "澳大利亚的首都是哪？", "堪培拉", ""),
    (1, "m", "我对花生过敏。|花生会让我过敏。", "我对什么过敏？", "花生", ""),
    (1, "m", "我很喜欢打羽毛球。|打羽毛球是我特别喜欢的运动。", "我喜欢什么运动？", "羽毛球", ""),
    (1, "s", "我的领导是老杨。|助手:你现在的领导是谁？|还是老杨。", "我的领导是谁？", "老杨", ""),
    (1, "s", "我开一辆蓝色的沃尔沃。|我的车是蓝色沃尔沃。", "我开什么车？", "沃尔沃", ""),
    (3, "s", "我姐姐是药剂师。|我姐姐的工作是药剂师。", "我姐姐做什么工作？", "药剂师", ""),
    (1, "s", "我的手机号是13566778899。|打13566778899就能找到我。", "我的手机号是多少？", "13566778899", ""),
    (1, "s", "基础套餐每月29元。|每个月29块钱就是基础套餐。", "基础套餐多少钱？", "29", ""),
    (1, "s", "我出生在泉州。|泉州是我的老家，我在那出生。", "我在哪里出生？", "泉州", ""),
    (1, "m", "我会说粤语。|粤语是我会说的语言之一。", "我会说哪些语言？", "粤语", ""),
    (3, "s", "小林的女朋友叫佳佳。|小林在和佳佳谈恋爱。", "小林的女朋友是谁？", "佳佳", ""),
    (1, "s", "我一般晚上十一点睡觉。|我通常十一点左右上床睡觉。", "我几点睡觉？", "十一点", ""),
    (1, "m", "我的两个孩子叫小雨和小山。|我有两个孩子：小山和小雨。", "我的孩子叫什么名字？", "小山", "小雨"),
    (1, "s", "我吃素。|我不吃肉，是素食者。", "我的饮食习惯是什么？", "素", ""),
    (3, "s", "团建在三亚。|助手:团建去哪儿来着？|三亚，我说过的。", "团建在哪里？", "三亚", ""),
    (1, "s", "我穿44码的鞋。|我鞋码是44。", "我穿多大的鞋？", "44", ""),
    (1, "s", "我当老师12年了。|我教书已经有12年了。", "我当老师多久了？", "12年", ""),
    (3, "s", "办公室无线密码是Heron!512。|办公室的Wi-Fi密码：Heron!512。", "办公室无线密码是什么？", "Heron!512", ""),
    (1, "m", "我喜欢看科幻小说。|科幻小说是我最爱看的书。", "我喜欢看什么书？", "科幻小说", ""),
    (1, "s", "我坐地铁上班。|我上班是坐地铁去的。", "我怎么去上班？", "地铁", ""),
    (3, "s", "我爸的生日是8月9日。|我爸爸是8月9日出生的。", "我爸生日是哪天？", "8月9日", ""),
    (1, "s", "我的房租每月3800。|我每个月付3800的房租。", "我的房租是多少？", "3800", ""),
    (1, "s", "去大连的航班7点45起飞。|大连那趟航班早上7点45起飞。", "去大连的航班几点起飞？", "7点45", ""),
    (3, "s", "我们最大的供应商是恒通。|恒通是给我们供货最多的供应商。", "我们最大的供应商是谁？", "恒通", ""),
]

# unrelated: (person, slot kind, turns, question about the last statement, current = its value, the first statement's value)
EN_UNRELATED = [
    (3, "s", "My sister lives in Lyon.|My sister's best friend lives in Nice.", "Where does my sister's best friend live?", "Nice", "Lyon"),
    (1, "s", "I work at Siemens.|My wife works at Allianz.", "Where does my wife work?", "Allianz", "Siemens"),
    (1, "s", "My phone extension is 4417.|The conference room's extension is 4000.", "What is the conference room's extension?", "4000", "4417"),
    (1, "s", "My car plate is K-AB 120.|My wife's car plate is K-ZZ 981.", "What is my wife's car plate?", "K-ZZ 981", "K-AB 120"),
    (3, "s", "The capital of Australia is Canberra.|The capital of Austria is Vienna.", "What is the capital of Austria?", "Vienna", "Canberra"),
    (3, "s", "Our CTO is Helen Park.|Our CFO is Ravi Menon.", "Who is our CFO?", "Ravi Menon", "Helen Park"),
    (3, "s", "Mei's husband is Kenji.|Mei's brother is Hiroshi.", "Who is Mei's brother?", "Hiroshi", "Kenji"),
    (1, "s", "The thesis deadline is March 15.|The conference paper deadline is February 2.", "When is the conference paper deadline?", "February 2", "March 15"),
    (1, "s", "The Pro plan costs $20 a month.|The Team plan costs $45 a month.", "How much is the Team plan?", "$45", "$20"),
    (1, "s", "My manager is Priya.|My mentor is Kwame.", "Who is my mentor?", "Kwame", "Priya"),
    (1, "s", "My home wifi password is sunflower42.|My laptop login password is Quokka_19.", "What is my laptop login password?", "Quokka_19", "sunflower42"),
    (1, "m", "I'm allergic to peanuts.|My son is allergic to eggs.", "What is my son allergic to?", "eggs", "peanuts"),
    (1, "s", "I live in Berlin.|My parents live in Hamburg.", "Where do my parents live?", "Hamburg", "Berlin"),
    (1, "s", "My dentist is Dr. Alvarez.|My kids' dentist is Dr. Moreau.", "Who is my kids' dentist?", "Moreau", "Alvarez"),
    (1, "s", "My flight to Rome is on Monday.|My flight back from Rome is on Thursday.", "When is my flight back from Rome?", "Thursday", "Monday"),
    (1, "s", "I drive a Toyota Corolla.|My boss drives a Porsche Taycan.", "What does my boss drive?", "Taycan", "Corolla"),
    (1, "s", "My rent is 1,100 euros.|My parking spot costs 90 euros a month.", "How much does my parking spot cost?", "90 euros", "1,100"),
    (3, "s", "Tom's partner is Lucy.|Tom's business partner is Ahmed.", "Who is Tom's business partner?", "Ahmed", "Lucy"),
    (1, "s", "My phone number is 0176 5512 903.|My office landline is 030 8812 440.", "What is my office landline?", "030 8812 440", "0176 5512 903"),
    (1, "m", "I like jazz.|My husband likes heavy metal.", "What music does my husband like?", "heavy metal", "jazz"),
    (1, "s", "My email is anna.k@postbox.de.|My work email is a.kowalski@fernwood.io.", "What is my work email?", "a.kowalski@fernwood.io", "anna.k@postbox.de"),
    (1, "s", "The kitchen renovation budget is 15,000.|The bathroom renovation budget is 8,000.", "What is the bathroom renovation budget?", "8,000", "15,000"),
    (3, "s", "The head of sales is Beatriz.|The head of marketing is Owen.", "Who is the head of marketing?", "Owen", "Beatriz"),
    (1, "s", "My gym is FitOne.|A:And your daughter?|She does gymnastics at Summit Athletics.", "Where does my daughter do gymnastics?", "Summit Athletics", "FitOne"),
    (1, "m", "I speak German.|My grandmother speaks Polish.", "Which language does my grandmother speak?", "Polish", "German"),
    (1, "s", "My locker code is 3-19-27.|The bike lock code is 7-7-0-4.", "What is the bike lock code?", "7-7-0-4", "3-19-27"),
    (1, "s", "The team meeting is on Tuesdays.|The board meeting is on the last Friday of the month.", "When is the board meeting?", "last Friday", "Tuesdays"),
    (1, "s", "I was born in Porto.|My husband was born in Accra.", "Where was my husband born?", "Accra", "Porto"),
    (3, "s", "The CEO of Norrland Energy is Sofia Berg.|The CEO of Norrland Bank is Erik Sand.", "Who is the CEO of Norrland Bank?", "Erik Sand", "Sofia Berg"),
    (1, "m", "My son plays the violin.|My son's friend plays the trumpet.", "What does my son's friend play?", "trumpet", "violin"),
    (1, "s", "I take 10 mg of lisinopril.|My mother takes 5 mg of amlodipine.", "What does my mother take?", "amlodipine", "lisinopril"),
    (1, "s", "The office is on the 3rd floor.|The cafeteria is on the ground floor.", "Which floor is the cafeteria on?", "ground floor", "3rd floor"),
]
ZH_UNRELATED = [
    (3, "s", "我姐姐住在成都。|我姐姐的闺蜜住在昆明。", "我姐姐的闺蜜住在哪？", "昆明", "成都"),
    (1, "s", "我在腾讯上班。|我老婆在平安保险上班。", "我老婆在哪上班？", "平安保险", "腾讯"),
    (1, "s", "我的分机号是6021。|大会议室的分机是6000。", "大会议室的分机是多少？", "6000", "6021"),
    (1, "s", "我的车牌号是沪A·5K321。|我老公的车牌号是沪B·7Q118。", "我老公的车牌号是多少？", "沪B·7Q118", "沪A·5K321"),
    (3, "s", "澳大利亚的首都是堪培拉。|奥地利的首都是维也纳。", "奥地利的首都是哪？", "维也纳", "堪培拉"),
    (3, "s", "我们的CTO是赵敏。|我们的CFO是钱伟。", "我们的CFO是谁？", "钱伟", "赵敏"),
    (3, "s", "小美的老公是李强。|小美的哥哥是李刚。", "小美的哥哥是谁？", "李刚", "李强"),
    (1, "s", "论文截止日期是3月15日。|会议投稿截止日期是2月2日。", "会议投稿什么时候截止？", "2月2日", "3月15日"),
    (1, "s", "专业版每月68元。|团队版每月198元。", "团队版多少钱？", "198", "68"),
    (1, "s", "我的领导是王磊。|我的导师是陈教授。", "我的导师是谁？", "陈教授", "王磊"),
    (1, "s", "家里无线密码是abc12345。|我电脑的开机密码是Koala_19。", "我电脑的开机密码是什么？", "Koala_19", "abc12345"),
    (1, "m", "我对花生过敏。|我儿子对鸡蛋过敏。", "我儿子对什么过敏？", "鸡蛋", "花生"),
    (1, "s", "我住在北京。|我爸妈住在天津。", "我爸妈住在哪？", "天津", "北京"),
    (1, "s", "我的牙医是黄医生。|孩子的牙医是方医生。", "孩子的牙医是谁？", "方医生", "黄医生"),
    (1, "s", "我去三亚的航班是周一。|从三亚回来的航班是周四。", "从三亚回来的航班是哪天？", "周四", "周一"),
    (1, "s", "我开丰田卡罗拉。|我老板开保时捷。", "我老板开什么车？", "保时捷", "卡罗拉"),
    (1, "s", "我房租每月4500。|车位每月租金600。", "车位每月多少钱？", "600", "4500"),
    (3, "s", "老张的爱人是刘姐。|老张的合伙人是小马。", "老张的合伙人是谁？", "小马", "刘姐"),
    (1, "s", "我的手机号是13812345678。|我办公室座机是010-88124400。", "我办公室座机是多少？", "010-88124400", "13812345678"),
    (1, "m", "我喜欢爵士乐。|我老公喜欢重金属。", "我老公喜欢什么音乐？", "重金属", "爵士"),
    (1, "s", "我的私人邮箱是xiaoli@163.com。|我的工作邮箱是li.xiao@yunfan.cn。", "我的工作邮箱是什么？", "li.xiao@yunfan.cn", "xiaoli@163.com"),
    (1, "s", "厨房装修预算是5万。|卫生间装修预算是3万。", "卫生间装修预算是多少？", "3万", "5万"),
    (3, "s", "销售总监是蔡姐。|市场总监是老欧。", "市场总监是谁？", "老欧", "蔡姐"),
    (1, "s", "我在乐刻健身。|助手:那你女儿呢？|她在少年宫学体操。", "我女儿在哪学体操？", "少年宫", "乐刻"),
    (1, "m", "我会说粤语。|我外婆会说潮汕话。", "我外婆会说什么方言？", "潮汕话", "粤语"),
    (1, "s", "我储物柜密码是3927。|自行车锁密码是7704。", "自行车锁密码是多少？", "7704", "3927"),
    (1, "s", "组里的周会在周二。|董事会在每月最后一个周五开。", "董事会什么时候开？", "最后一个周五", "周二"),
    (1, "s", "我出生在泉州。|我老公出生在哈尔滨。", "我老公在哪出生？", "哈尔滨", "泉州"),
    (3, "s", "北辰能源的总经理是沈静。|北辰银行的行长是杜衡。", "北辰银行的行长是谁？", "杜衡", "沈静"),
    (1, "m", "我儿子学小提琴。|我儿子的同学学小号。", "我儿子的同学学什么乐器？", "小号", "小提琴"),
    (1, "s", "我每天吃10毫克氨氯地平。|我妈每天吃5毫克的阿司匹林。", "我妈每天吃什么药？", "阿司匹林", "氨氯地平"),
    (1, "s", "办公室在3楼。|食堂在1楼。", "食堂在几楼？", "1楼", "3楼"),
]

# unrelated, the OLDER statement asked: a later statement about another subject or relation (often with
# change words of its own) must not outrank or end the earlier fact the question asks for (rows as above;
# current = the first statement's value, then the later statement's value). Appended after every other
# record, so that the positions (and the dev/heldout halves) of the earlier records do not move.
EN_UNRELATED_OLDER = [
    (1, "s", "I live in Porto.|My brother just moved to Lisbon.", "Where do I live?", "Porto", "Lisbon"),
    (3, "s", "Our CTO is Dana Levi.|Our new CFO is Marco Ruiz.", "Who is our CTO?", "Dana Levi", "Marco Ruiz"),
    (1, "s", "My dentist is Dr. Okafor.|The gym moved to a bigger place on Elm Street.", "Who is my dentist?", "Okafor", "Elm Street"),
    (1, "s", "My laptop password is Otter-77.|I changed the wifi password to Meadow-2024.", "What is my laptop password?", "Otter-77", "Meadow-2024"),
    (1, "s", "My sister's birthday is June 3.|My husband's birthday is October 21.", "When is my sister's birthday?", "June 3", "October 21"),
    (1, "s", "I work at Bosch.|I now live in Stuttgart.", "Where do I work?", "Bosch", "Stuttgart"),
    (1, "s", "The rent is 1,200 a month.|Our internet bill went up to 45 a month.", "How much is the rent?", "1,200", "45"),
    (3, "s", "The capital of Canada is Ottawa.|The largest city of Canada is Toronto.", "What is the capital of Canada?", "Ottawa", "Toronto"),
    (1, "s", "My flight to Oslo leaves at 8:15.|The train to the airport now leaves at 6:40.", "When does my flight to Oslo leave?", "8:15", "6:40"),
    (1, "s", "My manager is Ingrid.|My team lead is now Tobias.", "Who is my manager?", "Ingrid", "Tobias"),
    (1, "m", "I play the cello.|My daughter switched from piano to flute.", "What instrument do I play?", "cello", "flute"),
    (1, "s", "My car is a blue Skoda.|My wife drives a red Fiat now.", "What car do I have?", "Skoda", "Fiat"),
    (1, "s", "Our wedding anniversary is May 12.|The kids' school starts on September 4.", "When is our wedding anniversary?", "May 12", "September 4"),
    (1, "s", "My office is in room 214.|The printer is in room 118 now.", "Which room is my office in?", "214", "118"),
    (3, "s", "Lena's husband is Marek.|Lena's boss is now Greta.", "Who is Lena's husband?", "Marek", "Greta"),
    (1, "s", "I get up at 6:30.|The kids now get up at 7:15.", "When do I get up?", "6:30", "7:15"),
    (1, "s", "My blood type is A positive.|My son's blood type is O negative.", "What is my blood type?", "A positive", "O negative"),
    (1, "s", "I bank with ING.|I switched my phone plan to Vodafone.", "Which bank do I use?", "ING", "Vodafone"),
    (1, "s", "My shoe size is 42.|I wear a medium in shirts.", "What is my shoe size?", "42", "medium"),
    (3, "s", "The project deadline is April 30.|The budget review moved to May 6.", "When is the project deadline?", "April 30", "May 6"),
    (1, "s", "My favourite restaurant is Nomad.|We've started ordering from Sushi Taro every Friday.", "What is my favourite restaurant?", "Nomad", "Sushi Taro"),
    (1, "s", "I commute by bike.|My husband takes the bus to work now.", "How do I commute?", "bike", "bus"),
    (1, "s", "My locker number is 56.|My gym membership number is 88213.", "What is my locker number?", "56", "88213"),
    (1, "s", "My landlord is Mr. Brandt.|Our new neighbour is Mrs. Ilic.", "Who is my landlord?", "Brandt", "Ilic"),
]
ZH_UNRELATED_OLDER = [
    (1, "s", "我住在杭州。|我弟弟刚搬到了南京。", "我住在哪？", "杭州", "南京"),
    (3, "s", "我们的CTO是周航。|新来的CFO是孙磊。", "我们的CTO是谁？", "周航", "孙磊"),
    (1, "s", "我的牙医是吴医生。|健身房搬到了人民路。", "我的牙医是谁？", "吴医生", "人民路"),
    (1, "s", "我电脑的密码是Otter77。|家里的无线密码改成了Meadow2024。", "我电脑的密码是什么？", "Otter77", "Meadow2024"),
    (1, "s", "我姐姐的生日是6月3日。|我老公的生日是10月21日。", "我姐姐的生日是哪天？", "6月3日", "10月21日"),
    (1, "s", "我在华为上班。|我现在住在东莞。", "我在哪上班？", "华为", "东莞"),
    (1, "s", "房租每月3800。|网费涨到了每月120。", "房租每月多少？", "3800", "120"),
    (3, "s", "加拿大的首都是渥太华。|加拿大最大的城市是多伦多。", "加拿大的首都是哪？", "渥太华", "多伦多"),
    (1, "s", "我去成都的航班8点15起飞。|去机场的大巴现在6点40发车。", "我去成都的航班几点起飞？", "8点15", "6点40"),
    (1, "s", "我的领导是刘总。|我们组长现在是小赵。", "我的领导是谁？", "刘总", "小赵"),
    (1, "m", "我会拉大提琴。|我女儿从钢琴改学长笛了。", "我会什么乐器？", "大提琴", "长笛"),
    (1, "s", "我的车是蓝色的斯柯达。|我老婆现在开一辆红色的菲亚特。", "我开什么车？", "斯柯达", "菲亚特"),
    (1, "s", "我们的结婚纪念日是5月12日。|孩子9月4日开学。", "我们的结婚纪念日是哪天？", "5月12日", "9月4日"),
    (1, "s", "我的办公室在214房间。|打印机现在放在118房间。", "我的办公室在哪个房间？", "214", "118"),
    (3, "s", "丽娜的老公是马瑞。|丽娜的老板现在是葛蕾。", "丽娜的老公是谁？", "马瑞", "葛蕾"),
    (1, "s", "我每天6点半起床。|孩子们现在7点15起床。", "我每天几点起床？", "6点半", "7点15"),
    (1, "s", "我的血型是A型。|我儿子的血型是O型。", "我的血型是什么？", "A型", "O型"),
    (1, "s", "我的工资卡在招商银行。|手机套餐我换成了联通。", "我的工资卡在哪个银行？", "招商银行", "联通"),
    (1, "s", "我穿42码的鞋。|衬衫我穿M码。", "我穿多大的鞋？", "42", "M码"),
    (3, "s", "项目截止日期是4月30日。|预算评审改到了5月6日。", "项目截止日期是哪天？", "4月30日", "5月6日"),
    (1, "s", "我最喜欢的餐厅是新荣记。|最近每周五我们都点太二的外卖。", "我最喜欢的餐厅是哪家？", "新荣记", "太二"),
    (1, "s", "我骑自行车上班。|我老公现在坐公交上班。", "我怎么上班？", "自行车", "公交"),
    (1, "s", "我的储物柜是56号。|我的健身卡号是88213。", "我的储物柜是几号？", "56", "88213"),
    (1, "s", "我的房东是王先生。|新搬来的邻居是李阿姨。", "我的房东是谁？", "王先生", "李阿姨"),
]

# fmt: on

# fmt: off
# updates written in session 13 in other words than the earlier ones (after every other record: the earlier
# positions do not move); ids from 200
EN_UPDATES_LATER = [
    (1, "I drive a 2015 Honda Civic.|Traded in the Civic last week, I'm driving a Mazda CX-5 now.", 'What car do I drive?', 'Mazda', 'Honda'),
    (1, 'My dentist is Dr. Patel on Main Street.|I go to Dr. Kim for my teeth these days.', 'Who is my dentist?', 'Dr. Kim', 'Patel'),
    (1, "I usually wake up at 6:30.|I've been getting up at 5 since the new job started.", 'What time do I wake up?', 'at 5', '6:30'),
    (1, "My favourite podcast is Radiolab.|Lately I can't stop listening to Hardcore History, it's my favourite now.", "What's my favourite podcast?", 'Hardcore History', 'Radiolab'),
    (1, "I'm on the Verizon unlimited plan.|I switched my phone plan to T-Mobile.", 'Which phone plan am I on?', 'T-Mobile', 'Verizon'),
    (1, "My daughter's school is Lincoln Elementary.|We moved her to Oak Park Montessori in September.", 'What school does my daughter go to?', 'Oak Park', 'Lincoln'),
    (1, "I weigh about 85 kilos.|I'm down to 78 kilos after the diet.", 'How much do I weigh?', '78', '85'),
    (1, 'My gym is the Planet Fitness near work.|Cancelled Planet Fitness, I climb at Brooklyn Boulders instead.', 'Where do I work out?', 'Brooklyn Boulders', 'Planet Fitness'),
    (1, "I'm learning Spanish on Duolingo.|I gave up Duolingo and take Spanish lessons on italki now.", 'How am I learning Spanish?', 'italki', 'Duolingo'),
    (1, 'My bank is Chase.|I moved all my accounts over to Ally.', 'Which bank do I use?', 'Ally', 'Chase'),
    (1, 'I work the night shift at the hospital.|I finally got moved to day shifts at the hospital.', 'What shift do I work?', 'day shift', 'night shift'),
    (1, 'My laptop is a ThinkPad X1.|I replaced my ThinkPad with a MacBook Air.', 'What laptop do I use?', 'MacBook', 'ThinkPad'),
    (1, 'I commute by bus, about 40 minutes.|I bike to work now, it takes 25 minutes.', 'How do I commute?', 'bike', 'bus'),
    (1, 'My landlord is Mr. Alvarez.|The building got sold, our landlord is a company called Greystar now.', 'Who is my landlord?', 'Greystar', 'Alvarez'),
    (1, 'My therapist is Dr. Nguyen.|I stopped seeing Dr. Nguyen and started with a new therapist, Laura Chen.', 'Who is my therapist?', 'Laura Chen', 'Nguyen'),
    (1, 'I have a Netflix subscription.|I cancelled Netflix and signed up for Disney+.', 'Which streaming service do I subscribe to?', 'Disney+', 'Netflix'),
    (1, 'Our team standup is at 9:15.|Standup got pushed to 10 every day.', 'When is our team standup?', '10 every day', '9:15'),
    (1, "I'm vegetarian.|I started eating fish again, so pescatarian I guess.", "What's my diet?", 'pescatarian', 'vegetarian'),
    (1, 'My internet provider is Comcast.|We dropped Comcast for Google Fiber.', 'Who is my internet provider?', 'Google Fiber', 'Comcast'),
    (1, 'My running goal is a sub-2-hour half marathon.|New goal: I want to run a full marathon under 4 hours.', 'What is my running goal?', 'full marathon', 'half marathon'),
    (1, 'I live with two roommates in Queens.|I got my own studio in Astoria, no more roommates.', 'Where do I live?', 'Astoria', 'Queens'),
    (1, 'My go-to coffee order is an oat latte.|These days I just order black cold brew.', "What's my usual coffee order?", 'cold brew', 'oat latte'),
    (1, "I take the 7:40 train.|I'm catching the 8:10 train now.", 'Which train do I take?', '8:10', '7:40'),
    (1, "My email is jo.smith@gmail.com.|Please use jo@smithdesign.co from now on, I don't check the gmail.", "What's my email address?", 'jo@smithdesign.co', 'jo.smith@gmail.com'),
    (1, "I play guitar in a cover band on weekends.|The band broke up, I'm not playing gigs anymore.", 'Do I play in a band?', 'broke up', 'cover band'),
    (1, 'My mentor at work is Priya.|Priya left the company, so Marcus is mentoring me now.', 'Who is my mentor at work?', 'Marcus', 'Priya'),
    (1, 'My book club meets on Thursdays.|Book club moved to the first Sunday of each month.', 'When does my book club meet?', 'Sunday', 'Thursday'),
    (1, 'I use Android, a Pixel 7.|I caved and bought an iPhone 15.', 'What phone do I use?', 'iPhone', 'Pixel'),
    (1, "My salary is 85k.|Got a raise, I'm at 92k now.", "What's my salary?", '92k', '85k'),
    (1, 'My yoga class is on Tuesday evenings.|The studio moved my yoga class to Wednesday mornings.', 'When is my yoga class?', 'Wednesday', 'Tuesday'),
]
# fmt: on


# A fresh set (session 18), written before any rule was shaped on it and measured on it once per session of
# rule changes: ``update_pairs_fresh.jsonl`` (``bench.updates --data``). Same rows as above; ids from 300.
# fmt: off
FRESH_EN_UPDATES = [
    (1, "My gym membership costs $45 a month.|The gym hiked the membership fee, I now pay $52.", "How much is my gym membership?", "$52", "$45"),
    (1, "I'm a junior analyst at Barclays.|Got promoted to senior analyst last month!", "What is my job title?", "senior analyst", "junior analyst"),
    (1, "My locker code is 3391.|A:Did you ever reset the locker code?|Yes, it's 7702 now.", "What is my locker code?", "7702", "3391"),
    (3, "My brother Sam lives in Glasgow.|Sam's in Edinburgh these days, he got a flat near the castle.", "Where does Sam live?", "Edinburgh", "Glasgow"),
    (1, "I drive a blue Golf.|Sold the Golf, I'm driving a Tesla Model 3 now.", "What car do I drive?", "Tesla", "blue Golf"),
    (1, "My doctor is Dr. Reyes at the Fairview clinic.|I registered with a new GP, Dr. Osei, after Dr. Reyes retired.", "Who is my doctor?", "Osei", "Fairview"),
    (1, "I wake up at 7 on weekdays.|Since the baby arrived I'm up at 5:30 every day.", "What time do I get up?", "5:30", "at 7"),
    (3, "The project deadline is May 28.|The client gave us two more weeks, the deadline is June 12 now.", "When is the project deadline?", "June 12", "May 28"),
    (1, "My favourite band is Radiohead.|Honestly my favourite band these days is Arctic Monkeys.", "What's my favourite band?", "Arctic Monkeys", "Radiohead"),
    (1, "I pay 1,100 euros rent.|Our landlord put the rent up to 1,250 euros.", "How much rent do I pay?", "1,250", "1,100"),
    (1, "I'm engaged to Priya.|Priya and I got married on Saturday!", "What is my relationship status?", "married", "engaged"),
    (1, "My Spotify plan is the individual one.|I moved us onto the Spotify family plan.", "Which Spotify plan do I have?", "family", "individual"),
    (3, "Our office is on the 3rd floor.|We relocated the office up to the 9th floor.", "Which floor is our office on?", "9th", "3rd"),
    (1, "My blood pressure medication is amlodipine.|My cardiologist took me off it and put me on losartan.", "Which blood pressure medication do I take?", "losartan", "amlodipine"),
    (1, "I teach maths at Greenfield High.|I've taken a job teaching physics at Hillcrest Academy.", "Where do I teach?", "Hillcrest", "Greenfield"),
    (3, "The Wi-Fi in the café is called CafeNet.|The café renamed its network to BeanBar-Guest.", "What is the café's Wi-Fi network called?", "BeanBar-Guest", "CafeNet"),
    (1, "I'm on the 5:15 ferry home.|They cut that sailing, so I take the 5:45 ferry now.", "Which ferry do I take home?", "5:45", "5:15"),
    (1, "My cholesterol was 240.|Latest blood test: cholesterol down to 195.", "What is my cholesterol level?", "195", "240"),
    (1, "My username on the forum is bluefox.|I'm posting as night_owl on the forum now.", "What is my forum username?", "night_owl", "bluefox"),
    (3, "Lena is Mark's girlfriend.|Mark is dating Sofia now, he and Lena split.", "Who is Mark's girlfriend?", "Sofia", "Lena is"),
    (1, "I'm reading Middlemarch.|Finished that one; started on The Remains of the Day.", "What book am I reading?", "Remains of the Day", "Middlemarch"),
    (1, "My insurance is with Aviva.|A:Are you still with Aviva for insurance?|No, Direct Line was cheaper, so I went with them.", "Who is my insurer?", "Direct Line", "Aviva"),
    (1, "My coffee machine is a Nespresso.|I threw it out and got a Breville espresso machine.", "What coffee machine do I have?", "Breville", "Nespresso"),
    (1, "My parking spot is B12.|Building management reassigned me to spot C4.", "Which parking spot is mine?", "C4", "B12"),
    (1, "I run three times a week.|A knee injury means I only swim now, no running.", "What exercise do I do?", "swim", "three times a week"),
    (3, "My dad works as an accountant.|Dad retired in March.", "Does my dad still work?", "retired", "accountant"),
    (1, "My credit card limit is 3,000 pounds.|The bank bumped my card limit up to 5,000 pounds.", "What is my credit card limit?", "5,000", "3,000"),
    (1, "I'm based in the London office.|I transferred to our Dublin office in January.", "Which office am I based in?", "Dublin", "London"),
    (1, "My kid's bedtime is 8 pm.|We moved bedtime to 7:30 since school started.", "What time is my kid's bedtime?", "7:30", "8 pm"),
    (1, "My phone number is 07700 900123.|A:Is that still your number?|No, use 07700 900456 now.", "What's my phone number?", "07700 900456", "07700 900123"),
]
FRESH_ZH_UPDATES = [
    (1, "我的健身房月卡是199元。|健身房涨价了，月卡现在要239。", "我的健身房月卡多少钱？", "239", "199"),
    (1, "我在字节跳动做产品经理。|我从字节离职了，下周一去腾讯报到。", "我在哪家公司上班？", "腾讯", "跳动"),
    (3, "我表哥住在杭州。|表哥年初搬到苏州了。", "我表哥住在哪里？", "苏州", "杭州"),
    (1, "我的车是一辆白色的卡罗拉。|卡罗拉卖了，换了辆比亚迪汉。", "我开什么车？", "比亚迪", "白色"),
    (1, "我家宽带是电信的。|宽带换成移动的了，便宜一半。", "我家宽带是哪家的？", "移动", "电信"),
    (1, "我的主治医生是张医生。|张医生退休了，现在由陈医生给我看病。", "我的主治医生是谁？", "陈医生", "是张医生"),
    (1, "我每天六点半起床。|孩子出生后我五点就得起来了。", "我几点起床？", "五点", "六点半"),
    (3, "项目的截止日期是五月底。|客户同意延期，截止日期改到了六月二十号。", "项目什么时候截止？", "六月二十号", "五月底"),
    (1, "我房租每月三千二。|房东把房租涨到三千五了。", "我每月房租多少？", "三千五", "三千二"),
    (1, "我和小雪订婚了。|我和小雪上个月领证结婚了！", "我的婚姻状况是什么？", "结婚", "订婚"),
    (1, "我的工位在三楼。|公司调整座位，我被安排到了七楼。", "我的工位在几楼？", "七楼", "三楼"),
    (1, "我在吃二甲双胍控制血糖。|医生让我停了那个药，改打胰岛素。", "我用什么控制血糖？", "胰岛素", "二甲双胍"),
    (3, "我们公司的CEO是刘总。|刘总卸任了，董事会请来了新CEO孙敏。", "我们公司的CEO是谁？", "孙敏", "是刘总"),
    (1, "我一周跑三次步。|膝盖受伤以后我不跑步了，只游泳。", "我平时做什么运动？", "游泳", "一周跑三次"),
    (1, "我的微信名叫小鱼儿。|微信名改成了山海。", "我的微信名是什么？", "山海", "小鱼儿"),
    (1, "我家孩子在阳光幼儿园。|孩子转学去了实验小学附属幼儿园。", "我家孩子在哪个幼儿园？", "实验小学", "阳光"),
    (1, "我的信用卡额度是两万。|银行给我提额到五万了。", "我的信用卡额度是多少？", "五万", "两万"),
    (1, "我在北京分公司工作。|一月份我调去了上海总部。", "我在哪个办公室工作？", "上海", "北京"),
    (3, "我爸是中学老师。|我爸今年退休了。", "我爸还在工作吗？", "退休", "中学老师"),
    (1, "我的体重是75公斤。|减肥三个月，现在68公斤。", "我现在多重？", "68", "75"),
    (1, "我的停车位是B区12号。|物业把我的车位换到了C区4号。", "我的车位是几号？", "C区4号", "B区12号"),
    (1, "我用的是联通的号。|助手:你还在用联通吗？|不用了，携号转网到电信了。", "我用的是哪家运营商？", "电信", "联通"),
    (3, "小王的女朋友是丽丽。|小王和她分手了，现在在跟晓晴谈。", "小王的女朋友是谁？", "晓晴", "丽丽"),
    (1, "我在读《百年孤独》。|那本读完了，现在在看《活着》。", "我在读什么书？", "活着", "百年孤独"),
    (1, "我每天喝三杯咖啡。|我戒咖啡了，现在只喝茶。", "我每天喝多少咖啡？", "戒咖啡", "三杯"),
    (1, "我的护照号码是E12345678。|护照换新了，新号码是EA7654321。", "我的护照号码是多少？", "EA7654321", "E12345678"),
    (1, "我女儿的钢琴老师是李老师。|助手:女儿还跟李老师学琴吗？|没有了，换了个赵老师。", "我女儿的钢琴老师是谁？", "赵老师", "李老师"),
    (1, "我每个月工资一万五。|涨薪了，现在到手一万八。", "我每个月工资多少？", "一万八", "一万五"),
    (1, "我住在朝阳区。|上个月搬到海淀区了。", "我住在哪个区？", "海淀", "朝阳"),
    (1, "我的闹钟定在七点。|闹钟我改到六点四十了。", "我的闹钟定在几点？", "六点四十", "七点"),
]
FRESH_EN_MULTI = [
    (1, "I'm allergic to penicillin.|Turns out I'm allergic to latex as well.", "What am I allergic to?", "latex", "penicillin"),
    (1, "I play the piano.|I picked up the violin this year too.", "Which instruments do I play?", "violin", "piano"),
    (1, "I have a cat named Pepper.|We adopted a dog, Rufus, last weekend.", "What pets do I have?", "Rufus", "Pepper"),
    (1, "I speak French.|I can get by in Italian now as well.", "Which languages do I speak?", "Italian", "French"),
    (1, "I volunteer at the food bank.|I've started volunteering at the animal shelter on Sundays too.", "Where do I volunteer?", "animal shelter", "food bank"),
    (3, "My daughter Mia does ballet.|Mia joined the swim team as well.", "What activities does Mia do?", "swim team", "ballet"),
    (1, "I subscribe to The Economist.|I added a subscription to the New Yorker.", "Which magazines do I subscribe to?", "New Yorker", "Economist"),
    (1, "I like Thai food.|I've been really into Ethiopian food lately too.", "What cuisines do I like?", "Ethiopian", "Thai"),
    (1, "I've visited Japan.|Just got back from my first trip to Peru!", "Which countries have I visited?", "Peru", "Japan"),
    (1, "I take vitamin D every day.|My doctor added an iron supplement to my daily routine.", "Which supplements do I take?", "iron", "vitamin D"),
]
FRESH_ZH_MULTI = [
    (1, "我对青霉素过敏。|最近发现我对芒果也过敏。", "我对什么过敏？", "芒果", "青霉素"),
    (1, "我会弹吉他。|今年我又学会了打鼓。", "我会什么乐器？", "打鼓", "吉他"),
    (1, "我养了一只猫叫团子。|上周又领养了一只狗，叫旺财。", "我养了什么宠物？", "旺财", "团子"),
    (1, "我会说粤语。|在日本待了两年，日语也能说了。", "我会说哪些语言？", "日语", "粤语"),
    (1, "我喜欢吃川菜。|最近也爱上了云南菜。", "我喜欢什么菜？", "云南菜", "川菜"),
    (3, "我儿子在学围棋。|儿子这学期还报了游泳班。", "我儿子在学什么？", "游泳", "围棋"),
    (1, "我去过泰国。|刚从冰岛旅行回来！", "我去过哪些国家？", "冰岛", "泰国"),
    (1, "我每天吃鱼油。|医生让我每天再加一片钙片。", "我每天吃什么保健品？", "钙片", "鱼油"),
    (1, "我有一个女儿。|我们家老二出生了，是个儿子！", "我有几个孩子？", "儿子", "女儿"),
    (1, "我周末喜欢爬山。|最近周末也常去钓鱼。", "我周末喜欢做什么？", "钓鱼", "爬山"),
]
FRESH_EN_RESTATE = [
    (1, "s", "My sister's name is Clara.|Clara is my sister's name.", "What is my sister's name?", "Clara", ""),
    (1, "s", "I was born in Manchester.|Manchester is where I was born.", "Where was I born?", "Manchester", ""),
    (1, "s", "I go swimming every Tuesday.|Every Tuesday I go swimming.", "When do I go swimming?", "Tuesday", ""),
    (1, "s", "My flight number is BA 117.|A:What was your flight number?|BA 117.", "What is my flight number?", "BA 117", ""),
    (1, "s", "I work as a nurse at St Mary's.|I'm a nurse, I work at St Mary's.", "What is my job?", "nurse", "St Mary's"),
    (3, "s", "Our landlord is Mr. Brooks.|Mr. Brooks is our landlord.", "Who is our landlord?", "Brooks", ""),
    (1, "s", "My car is a grey Skoda Octavia.|I drive a grey Skoda Octavia.", "What car do I drive?", "Skoda", ""),
    (1, "s", "My shoe size is 44.|I wear size 44 shoes.", "What is my shoe size?", "44", ""),
]
FRESH_ZH_RESTATE = [
    (1, "s", "我妹妹叫林静。|林静是我妹妹。", "我妹妹叫什么？", "林静", ""),
    (1, "s", "我出生在青岛。|青岛是我的出生地。", "我在哪里出生？", "青岛", ""),
    (1, "s", "我每周二去游泳。|每个周二我都会去游泳。", "我什么时候去游泳？", "周二", ""),
    (1, "s", "我是一名护士，在协和医院上班。|我在协和医院当护士。", "我的工作是什么？", "护士", "协和"),
    (3, "s", "我们的房东是老陈。|老陈是我们的房东。", "我们的房东是谁？", "老陈", ""),
    (1, "s", "我开的是一辆灰色的思域。|我的车是灰色思域。", "我开什么车？", "思域", ""),
    (1, "s", "我穿44码的鞋。|我的鞋码是44。", "我穿多大码的鞋？", "44", ""),
    (1, "s", "我的航班号是CA1234。|助手:你的航班号是多少？|CA1234。", "我的航班号是多少？", "CA1234", ""),
]
FRESH_EN_UNRELATED = [
    (1, "s", "I live in Bristol.|My parents live in Bath.", "Where do my parents live?", "Bath", "Bristol"),
    (1, "s", "My manager is Ruth.|My wife's manager is Colin.", "Who is my wife's manager?", "Colin", "Ruth"),
    (1, "s", "My laptop is a Dell XPS.|My son's laptop is a Chromebook.", "What laptop does my son have?", "Chromebook", "Dell"),
    (1, "s", "My gym is PureGym.|My brother just joined a climbing gym called The Arch.", "Which gym did my brother join?", "The Arch", "PureGym"),
    (1, "s", "My phone number is 07700 111222.|The dentist's number is 0117 496 0000.", "What is the dentist's number?", "0117 496 0000", "07700 111222"),
    (3, "s", "Our CEO is Anna Berg.|Our head of sales is now Tom Reid.", "Who is our head of sales?", "Tom Reid", "Anna Berg"),
    (1, "s", "I drive a Toyota Yaris.|I switched my car insurance to Admiral.", "Who is my car insurer?", "Admiral", "Yaris"),
    (1, "s", "My Netflix password is Lumen-42.|I changed my bank PIN to 8841.", "What is my bank PIN?", "8841", "Lumen-42"),
    (1, "s", "I work at Unilever.|My husband moved to a new job at Pfizer.", "Where do I work?", "Unilever", "Pfizer"),
    (1, "s", "My doctor is Dr. Hale.|My vet is now Dr. Moss, the old vet retired.", "Who is my doctor?", "Hale", "Moss"),
    (1, "s", "My yoga class is on Mondays.|My daughter's swimming lessons moved to Thursdays.", "When is my yoga class?", "Mondays", "Thursdays"),
    (1, "s", "My home phone is 0161 555 0101.|My office number changed to 0161 555 0199.", "What is my home phone number?", "0161 555 0101", "0161 555 0199"),
    (3, "s", "The capital of Australia is Canberra.|The largest city in Australia is Sydney.", "What is the capital of Australia?", "Canberra", "Sydney"),
    (1, "s", "I take the 8:05 bus.|My wife takes the 7:50 train now.", "Which bus do I take?", "8:05", "7:50"),
]
FRESH_ZH_UNRELATED = [
    (1, "s", "我住在成都。|我爸妈住在绵阳。", "我爸妈住在哪里？", "绵阳", "成都"),
    (1, "s", "我的领导是王经理。|我老婆的领导是李主任。", "我老婆的领导是谁？", "李主任", "王经理"),
    (1, "s", "我用的是华为手机。|我儿子的手机是iPhone。", "我儿子用什么手机？", "iPhone", "华为"),
    (1, "s", "我的手机号是13900001111。|牙科诊所的电话是028-85550000。", "牙科诊所的电话是多少？", "028-85550000", "13900001111"),
    (3, "s", "我们公司的CEO是周总。|我们的销售总监现在是马丽。", "我们的销售总监是谁？", "马丽", "周总"),
    (1, "s", "我开的是大众朗逸。|我把车险换成了平安。", "我的车险是哪家的？", "平安", "朗逸"),
    (1, "s", "我的爱奇艺密码是abc123。|我把银行卡密码改成了660912。", "我的银行卡密码是多少？", "660912", "abc123"),
    (1, "s", "我在华为上班。|我老公跳槽去了小米。", "我老公在哪上班？", "小米", "华为"),
    (1, "s", "我在阿里上班。|我老婆换工作去了网易。", "我在哪上班？", "阿里", "网易"),
    (1, "s", "我的医生是孙医生。|我家狗的兽医换成了钱医生。", "我的医生是谁？", "孙医生", "钱医生"),
    (1, "s", "我的瑜伽课在周一。|女儿的游泳课改到周四了。", "我的瑜伽课是周几？", "周一", "周四"),
    (1, "s", "我家座机是010-66660000。|我办公室电话改成了010-88889999。", "我家座机号码是多少？", "010-66660000", "010-88889999"),
    (3, "s", "中国的首都是北京。|中国最大的城市是上海。", "中国的首都是哪里？", "北京", "上海"),
    (1, "s", "我每天坐8点05的公交。|我老婆现在改坐7点50的地铁了。", "我坐几点的公交？", "8点05", "7点50"),
]
# fmt: on

# A second fresh set (session 19), written blind (without reading the rules it is measured on), for
# ``update_pairs_fresh2.jsonl`` (``bench.updates --data``). Same rows as above; ids from 400.
# fmt: off
FRESH2_EN_UPDATES = [
    (1, "I always get my hair cut by Luca at the barber's on Canal Street.|My regular guy is booked up for weeks, so these days Dee on Harrow Road does my hair.", "Who cuts my hair?", "Dee", "Luca"),
    (1, "We're on a 4.2% fixed rate with Nationwide for the mortgage.|Remortgaged with Halifax last week, 3.6% fixed for five years.", "What is my mortgage rate?", "3.6%", "4.2%"),
    (1, "My contact lens prescription is -2.25 in both eyes.|Had my eye test this morning and both eyes are -2.75 now, so I've ordered new lenses.", "What is my contact lens prescription?", "-2.75", "-2.25"),
    (3, "The photography club meets in Room 12 at the community centre.|Heads up for the photo club: we've lost our old room, so from the next meeting on it's the upstairs studio above Crumbs bakery.", "Where does the photography club meet?", "upstairs studio", "Room 12"),
    (1, "My emergency contact at work is my brother Ray.|HR has my neighbour Gwen down as my emergency contact now, since my brother's abroad for a year.", "Who is my emergency contact at work?", "Gwen", "Ray"),
    (1, "There are six of us on my team.|We onboarded two new hires this week, which makes us eight.", "How many people are on my team?", "eight", "six"),
    (3, "My sister Fiona works as a paralegal at a law firm in Leeds.|Fiona qualified as a solicitor! She's staying on at the same firm.", "What does Fiona do for work?", "solicitor", "paralegal"),
    (1, "Our babysitter is Maddie, the student from next door.|A:How's the after-school childcare going?|Our old sitter went off to uni, so Mrs. Okonjo, a retired teacher down the road, has the kids after school.", "Who looks after my kids after school?", "Okonjo", "Maddie"),
    (1, "We keep the heating at 21 degrees.|With the bills this winter we've turned the thermostat down to 18.", "What temperature is our heating set to?", "18", "21"),
    (1, "I get the 38 bus to work.|They rerouted my old bus, so I catch the 73 instead.", "Which bus do I take to work?", "73", "38"),
    (1, "I take 50 mcg of levothyroxine for my thyroid.|My endocrinologist upped the levothyroxine to 75 mcg.", "What dose of levothyroxine do I take?", "75 mcg", "50 mcg"),
    (3, "Our band rehearses in Kev's garage.|We rent a rehearsal room at Soundbox now, the neighbours kept complaining about the noise.", "Where does our band rehearse?", "Soundbox", "garage"),
    (3, "The startup I freelance for is called Lumio.|My freelance client rebranded, they're Brightwell these days, new logo and everything.", "What is the startup I freelance for called?", "Brightwell", "Lumio"),
    (1, "Harriet Cole does my accounts.|Ledgerline is handling my tax return this year, a friend recommended them.", "Who does my accounts?", "Ledgerline", "Harriet Cole"),
    (1, "I play off a handicap of 18.|Good summer on the course, the club has cut me to 14.", "What is my golf handicap?", "14", "18"),
    (3, "Recycling gets collected on Wednesdays on our street.|The council changed the bin schedule, recycling is picked up on Mondays now.", "When is our recycling collected?", "Mondays", "Wednesdays"),
    (1, "I'm doing 16:8 intermittent fasting.|I stopped the fasting, it made me miserable, and I'm back to eating breakfast.", "Am I doing intermittent fasting?", "stopped the fasting", "16:8"),
    (1, "I sing in the church choir every Sunday.|I'm not in the choir anymore, Sundays are all about the kids' football now.", "Do I sing in a choir?", "not in the choir", "church choir"),
    (1, "I usually have a glass of wine in the evening.|It's been two months without a drink, I've just kept dry January going.", "Do I drink alcohol?", "without a drink", "glass of wine"),
    (1, "I'm doing a pottery class on Wednesday nights.|A:How are your Wednesday evenings looking these days?|Dropped the clay after the first term, it's life drawing at the art college instead.", "Which evening class do I take?", "life drawing", "pottery"),
    (3, "Dimitri handles payroll.|Payroll questions go to Aisling these days; the old payroll guy moved over to procurement.", "Who handles payroll?", "Aisling", "Dimitri"),
    (3, "Dad's knee operation is booked for 14 November.|The hospital rang, they've brought Dad's knee op forward to the 2nd of October.", "When is Dad's knee operation?", "2nd of October", "14 November"),
    (3, "We give Max £5 a week in pocket money.|Max negotiated himself a raise, he gets £7 a week.", "How much pocket money does Max get?", "£7", "£5"),
    (1, "Our lease runs until the end of August.|Any tips for getting red wine out of a rug?|We signed the renewal, so we're in the flat through next February.", "When does our lease end?", "February", "August"),
    (3, "Our dog Juno weighs 31 kg.|Vet weighed Juno at 27 kg today, the diet food is working.", "How much does Juno weigh?", "27 kg", "31 kg"),
    (1, "Tom does the school run every morning.|Quick brain dump: finished the quarterly report, booked the kids in at the dentist, and Mum's moving in next month so we're turning the study into a bedroom. Oh, and the school run is on me from now on, Tom's hours changed.", "Who does the school run?", "on me from now on", "Tom does"),
    (1, "I work out of the Manchester office on Quay Street.|The company moved our Manchester office over to Spinningfields, same team, new building.", "Where is my office?", "Spinningfields", "Quay Street"),
    (1, "My physio sessions are on Tuesdays at 4.|Can you suggest a few stretches for a stiff lower back?|Physio's moved me to Friday mornings at 8:30.", "When are my physio sessions?", "Friday", "Tuesdays"),
    (1, "I've got £2,300 saved for the Japan trip.|What's a good app for tracking a travel budget?|The Japan pot is up to £3,100.", "How much have I saved for the Japan trip?", "£3,100", "£2,300"),
    (1, "My fundraising target for the charity ride is £500.|A:How's the fundraising for the ride going?|Smashed it already, so I've set a new target of £800.", "What's my fundraising target for the charity ride?", "£800", "£500"),
]
FRESH2_ZH_UPDATES = [
    (1, "我剪头发一直找Tony老师。|原来那个理发师太难约了，最近都是楼下店里的阿May给我剪。", "谁给我剪头发？", "阿May", "Tony"),
    (1, "我们家房贷利率是4.9%。|前阵子转成LPR了，房贷利率降到3.95%。", "我家房贷利率是多少？", "3.95%", "4.9%"),
    (3, "闺女的数学家教一小时150块。|家教老师说下学期开始一小时收180。", "闺女的数学家教一小时多少钱？", "180", "150"),
    (3, "我们小区物业费一平米两块五。|业委会开完会，物业费涨到每平米三块了。", "我们小区物业费一平米多少钱？", "三块", "两块五"),
    (3, "我妈每天吃一片缬沙坦降压。|医生给我妈把缬沙坦加到一天两片了。", "我妈每天吃几片缬沙坦？", "两片", "一片"),
    (3, "我们羽毛球群每周六在区体育馆打球。|原来那个场地太难订，球友们商量了一下，以后每周六去大学城的球馆。", "我们羽毛球群在哪打球？", "大学城", "体育馆"),
    (1, "我每天坐2号线上班。|公司搬到望京以后，我上班改坐14号线了。", "我坐几号线上班？", "14号线", "2号线"),
    (1, "我公积金是按7%交的。|今年公司把公积金比例提到了12%。", "我的公积金缴存比例是多少？", "12%", "7%"),
    (3, "我家狗狗可乐一直吃皇家的狗粮。|可乐肠胃不太好，兽医推荐的渴望吃了一个月，挺对它胃口的。", "可乐吃什么牌子的狗粮？", "渴望", "皇家"),
    (1, "我每天晚上都要打两个小时游戏。|自从有了娃，游戏基本不怎么碰了，晚上都在哄孩子睡觉。", "我晚上还打游戏吗？", "不怎么碰了", "两个小时"),
    (1, "我晚饭基本都要喝二两白酒。|体检查出来脂肪肝，酒我是一滴都不沾了。", "我还喝酒吗？", "一滴都不沾", "二两白酒"),
    (1, "我在公司兼职做工会委员。|工会那摊事我不再管了，太占时间。", "我还在做工会委员吗？", "不再管了", "兼职做工会委员"),
    (1, "家里请的保洁阿姨是周姐，每周来两次。|之前那个阿姨回老家带孙子去了，家政公司现在换成了刘阿姨。", "家里的保洁阿姨是谁？", "刘阿姨", "周姐"),
    (3, "我老公在一家外企做销售。|我老公辞职了，跟朋友合伙开了家奶茶店。", "我老公做什么工作？", "奶茶店", "外企"),
    (1, "我空腹血糖是7.2。|这次复查空腹血糖6.1，医生说控制得挺好。", "我的空腹血糖是多少？", "6.1", "7.2"),
    (1, "我王者荣耀现在是钻石段位。|这赛季终于打上王者了！", "我王者荣耀是什么段位？", "打上王者", "钻石"),
    (1, "我的车险一年4300。|帮我想想周末带孩子去哪儿玩？|车险续保交完了，一年3600。", "我的车险一年多少钱？", "3600", "4300"),
    (1, "我练车时间是每周三下午。|科目二倒车入库有什么技巧吗？|教练把我的练车时间挪到周日早上了。", "我什么时候练车？", "周日早上", "周三下午"),
    (3, "我爸住在县医院三楼的病房。|帮我查查医院探视一般几点可以？|我爸转到市人民医院心内科了。", "我爸在哪家医院住院？", "市人民医院", "县医院"),
    (1, "每个月给爸妈转一千五生活费。|助手:最近给爸妈的生活费还是老样子吗？|多了点，现在每月转两千。", "我每月给爸妈多少生活费？", "两千", "一千五"),
    (1, "我的私教是小黑。|助手:最近还在上私教课吗？|在上，不过换了个女教练，叫Coco。", "我的私教是谁？", "Coco", "小黑"),
    (3, "报销的事一般找财务的老吴。|今天真是累死了，早上孩子发烧请了半天假，下午又被拉去开会。对了，我们部门报销现在统一找财务小周，原来那位调去审计了。晚上还得给孩子熬粥。", "报销找谁？", "小周", "老吴"),
    (3, "楼下早餐店的豆浆油条套餐六块。|早餐店那个套餐涨到七块五了。", "楼下早餐店的套餐多少钱？", "七块五", "六块"),
    (1, "我住在翠湖花园5栋。|还在翠湖花园，不过换到了12栋，楼层高一点。", "我住在翠湖花园几栋？", "12栋", "5栋"),
    (1, "我老家那套房子租出去了，每个月1500。|老家房子换了租客，月租1800。", "我老家的房子每月租金多少？", "1800", "1500"),
    (3, "我们公司的年会定在一月十号。|年会改期了，挪到一月二十四号。", "公司年会是哪天？", "二十四号", "一月十号"),
    (3, "我闺女在三年级二班。|闺女这学期分班，分到了三年级五班。", "我闺女在哪个班？", "五班", "二班"),
    (1, "我信用卡还款日是每月5号。|我把还款日改成了每月20号，跟发工资对上。", "我的信用卡还款日是哪天？", "20号", "5号"),
    (3, "我们组的设计是小芸负责的。|设计那边的同事休产假了，这几个月由外包的阿Ken顶上。", "我们组的设计现在谁负责？", "阿Ken", "小芸"),
    (1, "我的车开了三万公里。|车现在跑了四万二了，该保养了。", "我的车跑了多少公里？", "四万二", "三万"),
]
FRESH2_EN_MULTI = [
    (1, "I listen to 99% Invisible on my commute.|Ologies has joined my commute rotation too.", "Which podcasts do I listen to?", "Ologies", "99% Invisible"),
    (1, "We've got Catan at home.|Picked up Wingspan for game nights as well.", "Which board games do we own?", "Wingspan", "Catan"),
    (3, "Arlo plays rugby on Saturdays.|A:Does Arlo do anything else?|He's started fencing after school too.", "What sports does Arlo do?", "fencing", "rugby"),
    (1, "I lived in Cardiff for uni.|Before that I spent two years in Glasgow, forgot to mention.", "Which cities have I lived in?", "Glasgow", "Cardiff"),
    (1, "I'm watching Severance.|Also started Slow Horses, both are great.", "Which shows am I watching?", "Slow Horses", "Severance"),
    (1, "I've got an Amex Gold card.|My Barclaycard came through today as well.", "Which credit cards do I have?", "Barclaycard", "Amex Gold"),
    (1, "I have a monstera in the living room.|Bought a fiddle-leaf fig for the bedroom.", "Which houseplants do I have?", "fiddle-leaf fig", "monstera"),
    (3, "My wife knits.|She's got really into sea swimming this year.", "What are my wife's hobbies?", "sea swimming", "knits"),
    (1, "I ran the London Marathon in 2019.|Ran Berlin in September, that's marathon number two!", "Which marathons have I run?", "Berlin", "London"),
    (3, "Our company sells accounting software.|We launched a payroll product this quarter as well.", "What products does our company sell?", "payroll", "accounting software"),
]
FRESH2_ZH_MULTI = [
    (1, "我在追《繁花》。|最近还在看《漫长的季节》，两部换着看。", "我在追哪些剧？", "漫长的季节", "繁花"),
    (1, "我点外卖一般用美团。|饿了么我也装了，哪个便宜用哪个。", "我用哪些外卖App？", "饿了么", "美团"),
    (3, "我爸有高血压。|体检发现我爸还有点痛风。", "我爸有哪些毛病？", "痛风", "高血压"),
    (1, "我去过西安。|国庆去了趟大理，又打卡一个城市。", "我去过哪些城市？", "大理", "西安"),
    (1, "我会做红烧肉。|最近学会了酸菜鱼，家里人都说好吃。", "我会做哪些菜？", "酸菜鱼", "红烧肉"),
    (3, "我们公司主要做净水器。|今年我们又上了一款洗碗机。", "我们公司有哪些产品？", "洗碗机", "净水器"),
    (1, "我下班会接点翻译的活。|周末我还在夜市摆摊卖手作。", "我有哪些副业？", "摆摊", "翻译"),
    (1, "我客厅养了一盆绿萝。|又搬回来一盆发财树放门口。", "我家养了哪些绿植？", "发财树", "绿萝"),
    (1, "我在玩原神。|助手:最近还玩别的游戏吗？|黑神话也在玩，周末刷一刷。", "我在玩哪些游戏？", "黑神话", "原神"),
    (3, "我奶奶每天早上去公园打太极。|奶奶最近还报了老年大学的书法班。", "我奶奶有哪些爱好？", "书法", "太极"),
]
FRESH2_EN_RESTATE = [
    (1, "s", "The code for my building's front door is 4471.|To get into my building you punch in 4471.", "What is my building's door code?", "4471", ""),
    (1, "s", "I'm left-handed.|I write with my left hand.", "Which hand do I write with?", "left", ""),
    (3, "s", "Our sprints are two weeks long.|Each sprint lasts two weeks for us.", "How long are our sprints?", "two weeks", ""),
    (1, "m", "I spend my weekends hiking and birdwatching.|My weekends are for birdwatching and hiking.", "What are my weekend hobbies?", "birdwatching", "hiking"),
    (3, "s", "My nephew Callum is studying architecture at Sheffield.|Callum's doing an architecture degree at Sheffield.", "What does Callum study?", "architecture", "Sheffield"),
    (1, "s", "I ride a Brompton.|A:What kind of bike do you have?|A folding Brompton.", "What bike do I ride?", "Brompton", ""),
    (3, "s", "The club's AGM is on 3 March.|3 March is when the club holds its AGM.", "When is the club's AGM?", "3 March", ""),
    (1, "s", "I put 6% of my salary into my pension.|My pension contribution is 6% of my pay.", "How much do I put into my pension?", "6%", "pension"),
]
FRESH2_ZH_RESTATE = [
    (1, "s", "我是87年的，属兔。|我属兔，1987年生的。", "我属什么？", "属兔", "87"),
    (1, "s", "我近视六百度。|我眼睛六百度近视。", "我近视多少度？", "六百度", ""),
    (3, "s", "我们公司每个月15号发工资。|发薪日是每月15号。", "公司几号发工资？", "15号", ""),
    (1, "m", "我平时喜欢钓鱼和下象棋。|下象棋、钓鱼，这俩是我最大的爱好。", "我有什么爱好？", "钓鱼", "象棋"),
    (3, "s", "我外甥在南京读研，学的是建筑。|外甥在南京念建筑学的研究生。", "我外甥学什么？", "建筑", "南京"),
    (1, "s", "我骑的电动车是雅迪的。|助手:你的电动车是什么牌子？|雅迪。", "我的电动车是什么牌子？", "雅迪", ""),
    (3, "s", "楼下菜市场早上六点开门。|菜市场六点就开了。", "菜市场几点开门？", "六点", ""),
    (1, "s", "我每个月定投基金一千块。|基金定投我每月投一千。", "我每月定投多少？", "一千", "定投"),
]
FRESH2_EN_UNRELATED = [
    (1, "s", "My sister's mobile is 07911 482 306.|My mobile is 07700 318 552.", "What is my sister's mobile number?", "07911 482 306", "07700 318 552"),
    (1, "s", "I work at 14 Bridge Street, fourth floor.|Home is 27 Alder Close.", "What is my work address?", "14 Bridge Street", "27 Alder Close"),
    (1, "s", "My son goes to St Anselm's.|My daughter's starting at Westbrook Academy in September.", "Which school does my son go to?", "St Anselm's", "Westbrook"),
    (1, "s", "My car insurance renews on 1 March.|The home insurance renewal is 9 July.", "When does my home insurance renew?", "9 July", "1 March"),
    (3, "s", "The club's meeting room is the Garden Room at the Royal Oak.|The club's committee meets in Helen's front room.", "Where does the club's committee meet?", "Helen's front room", "Garden Room"),
    (1, "s", "My Wednesday yoga is at 6:30 pm.|I've switched my Saturday spin class to 9 am.", "What time is my Wednesday yoga?", "6:30", "9 am"),
    (3, "s", "Our project deadline is 20 May.|The kickoff for the next phase is now 3 June.", "When is the project deadline?", "20 May", "3 June"),
    (1, "s", "My brother-in-law is called Declan.|My brother's partner is called Ruairi.", "What is my brother's partner called?", "Ruairi", "Declan"),
    (1, "s", "My personal email is mags.h@fastmail.com.|Changed my Amazon login email to margaret.hale@outlook.com.", "What is my personal email?", "mags.h@fastmail.com", "margaret.hale@outlook.com"),
    (1, "s", "My husband's GP is Dr. Farouk.|My GP moved me over to Dr. Lindgren at the same practice.", "Who is my husband's GP?", "Farouk", "Lindgren"),
    (1, "s", "My gym locker is number 112.|Ella's swim locker is 58.", "Which locker is Ella's?", "58", "112"),
    (3, "s", "Our office Wi-Fi password is Juniper!88.|The guest Wi-Fi password at the office is Welcome2Visit.", "What is the office guest Wi-Fi password?", "Welcome2Visit", "Juniper!88"),
    (1, "s", "My flight to Madrid lands at 14:20.|My mum's flight into Madrid lands at 16:05.", "When does my flight to Madrid land?", "14:20", "16:05"),
    (1, "m", "I play squash.|My partner's taken up padel.", "What sport has my partner taken up?", "padel", "squash"),
]
FRESH2_ZH_UNRELATED = [
    (1, "s", "我妹的手机号是13688025417。|我自己的号是15011937260。", "我妹的手机号是多少？", "13688025417", "15011937260"),
    (1, "s", "我单位在建国路88号。|我家住在通惠河北路那边的美景东方小区。", "我单位在哪？", "建国路88号", "美景东方"),
    (1, "s", "大儿子在育英小学读书。|小闺女九月份要上区实验幼儿园了。", "小闺女要上哪个幼儿园？", "区实验幼儿园", "育英小学"),
    (1, "s", "我的驾照明年八月到期。|我的身份证后年到期。", "我的驾照什么时候到期？", "明年八月", "后年"),
    (3, "s", "我们读书会平时在星巴克二楼。|读书会的理事们开会在老周家客厅。", "读书会的理事在哪开会？", "老周家客厅", "星巴克"),
    (1, "s", "我每周三晚上去上尤克里里课，七点开始。|我跟邻居约的羽毛球换到周六早上九点了。", "我的尤克里里课几点开始？", "七点", "九点"),
    (3, "s", "项目上线日期定的是6月18号。|第二期的需求评审现在挪到7月2号了。", "项目什么时候上线？", "6月18号", "7月2号"),
    (1, "s", "我老公的哥哥叫建军。|我哥的女朋友叫小敏。", "我哥的女朋友叫什么？", "小敏", "建军"),
    (1, "s", "我公积金账号是2310045876。|我社保卡换了张新的，卡号尾号是6632。", "我的公积金账号是多少？", "2310045876", "6632"),
    (1, "s", "我爸的牙是在口腔医院找杜大夫看的。|我那颗智齿后来是找商医生拔的。", "我爸的牙找谁看？", "杜大夫", "商医生"),
    (1, "s", "我的车位是负二层的A-115。|我老婆的车停在负一层的B-032。", "我老婆的车停在哪？", "B-032", "A-115"),
    (3, "s", "我们公司前台电话是0571-86021234。|公司法务部的电话是0571-86021290。", "公司法务部电话是多少？", "0571-86021290", "0571-86021234"),
    (1, "s", "我下周五飞深圳，航班是早上九点四十的。|我婆婆那班从长沙过来的高铁下午三点到。", "我飞深圳的航班几点的？", "九点四十", "三点"),
    (1, "m", "我会打乒乓球。|我老婆最近迷上了飞盘。", "我老婆最近迷上了什么？", "飞盘", "乒乓球"),
]
# fmt: on

# A third fresh set (session 20), written blind (without reading the rules it is measured on, nor running the
# bench on it), for ``update_pairs_fresh3.jsonl`` (``bench.updates --data``). Same rows as above; ids from 500.
# fmt: off
FRESH3_EN_UPDATES = [
    (3, "Ellie is four and obsessed with dinosaurs.|We had Ellie's fifth birthday party at the soft play on Saturday, total chaos.", "How old is Ellie?", "fifth", "four"),
    (1, "I keep all my passwords in LastPass.|After the breach I moved everything over to 1Password.", "Which password manager do I use?", "1Password", "LastPass"),
    (3, "My sister goes by Kate Doyle.|Kate took Brennan as her surname when she married Luis.", "What is my sister's surname?", "Brennan", "Doyle"),
    (1, "We get our gas and electricity from EDF.|We've switched energy supplier to Ovo, the fixed deal was better.", "Who is our energy supplier?", "Ovo", "EDF"),
    (1, "Our food shop comes from Tesco on Thursday evenings.|Our weekly Ocado order turned up early again on Saturday, I had to run down in my pyjamas.", "Who delivers our groceries?", "Ocado", "Tesco"),
    (1, "My usual coffee spot is Grindhouse on Mill Road.|Most mornings you'll find me at Kiln by the station, their flat white is unreal.", "Where do I get my morning coffee?", "Kiln", "Grindhouse"),
    (3, "Noah gets an hour of screen time a day.|After that school report we cut Noah to thirty minutes of screens a day.", "How much screen time does Noah get?", "thirty minutes", "an hour"),
    (1, "My resting heart rate sits around 72.|Three months of running and my watch shows a resting heart rate of 61.", "What is my resting heart rate?", "61", "72"),
    (1, "The estate agent valued the house at £310,000.|A:Did you get the second valuation?|Yes, Foxtons came in higher at £345,000, so we've updated the asking price.", "What is our house valued at?", "£345,000", "£310,000"),
    (1, "Bella from number 8 walks our dog on weekdays.|A:Who's walking the dog while you're at work?|A lad called Finn from the next street does it, our old walker's gone off travelling.", "Who walks our dog on weekdays?", "Finn", "Bella"),
    (3, "Our team tracks work in Jira.|We migrated every ticket over to Linear last sprint.", "Which tool does our team use for tickets?", "Linear", "Jira"),
    (3, "Ruby's in Year 2 with Mrs Hollis.|Ruby's first week of Year 3 went brilliantly, she loves having a male teacher.", "What year is Ruby in at school?", "Year 3", "Year 2"),
    (3, "My mate Dev is a sous chef at the Radisson.|Dev left the Radisson and runs his own taco truck now, queue round the block last weekend.", "What does Dev do for work?", "taco truck", "sous chef"),
    (1, "I'm vice-captain of the hockey team.|The team voted me captain for this season, first match in charge is Saturday.", "What's my role in the hockey team?", "voted me captain", "vice-captain"),
    (3, "The flat upstairs is rented by a couple called the Jacksons.|Met our upstairs neighbour Ottilie today, she's a vet student and has the whole flat to herself.", "Who lives in the flat upstairs?", "Ottilie", "Jacksons"),
    (1, "I'm on the parish council.|A:Do you have the parish council meeting on Tuesday?|No, I quit the council in the spring, too many late nights.", "Am I still a parish councillor?", "quit the council", "on the parish council"),
    (1, "I bite my nails when I'm stressed.|Haven't bitten my nails in three months, the bitter polish actually worked.", "Do I bite my nails?", "Haven't bitten", "when I'm stressed"),
    (1, "I take 50 mg of sertraline every day.|Came off the sertraline in March with my GP's help and I'm feeling good.", "Do I take sertraline?", "Came off", "50 mg"),
    (1, "I'm a National Trust member.|I let the National Trust membership lapse, we never used it.", "Do I have a National Trust membership?", "lapse", "I'm a National Trust member"),
    (1, "My dental check-up is at 10 am on 12 March.|Same day, but the dentist moved my check-up to 2:15 pm.", "What time is my dental check-up?", "2:15", "10 am"),
    (1, "We've booked the Padstow cottage for 12-19 August.|Ended up with 19-26 August for Padstow, the owners had double-booked the first week.", "Which dates is our Padstow cottage booked for?", "19-26", "12-19"),
    (1, "Our planning application for the extension is with the council.|The council refused the extension, so now we're appealing.", "Where are we with the planning application for our extension?", "appealing", "with the council"),
    (3, "Isla is on Stage 3 at swimming lessons.|Isla came home beaming with her Stage 5 badge, she skipped a level!", "Which swimming stage is Isla on?", "Stage 5", "Stage 3"),
    (3, "The head teacher at the kids' school is Mrs Pryce.|The kids' school has a new head, Mr Achterberg, the old head retired at Easter.", "Who is the head teacher at the kids' school?", "Achterberg", "Pryce"),
    (1, "My broadband is 70 Mbps.|Upgraded to full fibre, we get 500 Mbps now.", "How fast is my broadband?", "500", "70 Mbps"),
    (1, "My 10k personal best is 52 minutes.|Crossed the line at the Richmond 10k in 48:30, a PB by miles!", "What is my 10k personal best?", "48:30", "52 minutes"),
    (3, "The library is open until 6 on weekdays.|Budget cuts: the library shuts at 5 on weekdays from this month.", "What time does the library close on weekdays?", "at 5", "until 6"),
    (3, "Jack plays in goal for the under-10s.|Jack scored twice from up front on Sunday, the coach reckons he's a natural striker.", "What position does Jack play?", "striker", "in goal"),
    (1, "Completion on the house is set for 3 May.|Can you remind me what a conveyancer actually does?|Solicitor rang: completion's 17 May, the chain above us is dragging.", "When is completion on our house?", "17 May", "3 May"),
    (1, "I'm putting £300 a month into my ISA.|A:Is the ISA standing order still going out on the 1st?|Yes, but I upped it to £450 after the pay rise.", "How much do I pay into my ISA each month?", "£450", "£300"),
]
FRESH3_ZH_UPDATES = [
    (1, "我驾照这个周期已经扣了6分。|上周又被拍了个压实线，一共扣了9分了，再扣就得去重新学习。", "我驾照扣了几分了？", "9分", "6分"),
    (3, "我婆婆一直住我们家帮忙带孩子。|孩子上小学了，婆婆回河南老家享清福去了。", "我婆婆住在哪？", "河南老家", "我们家"),
    (1, "公司每个月餐补400块。|餐补从这个月起调到600了。", "公司每月餐补多少？", "600", "400"),
    (1, "我考研目标是浙大。|助手:考研择校最后定了吗？|定了，报华东师大，求稳。", "我考研报的哪所学校？", "华东师大", "浙大"),
    (3, "闺女近视一百五十度。|今天带闺女复查，近视涨到两百度了，得重新配眼镜。", "闺女近视多少度？", "两百度", "一百五十度"),
    (1, "我手里有两千股招商银行。|上周又加仓了一千股招行，一共三千股了。", "我持有多少股招商银行？", "三千股", "两千股"),
    (3, "我妹在建行柜台上班。|我妹考上公务员了，分在区税务局，下个月报到。", "我妹在哪上班？", "税务局", "建行柜台"),
    (3, "我家咪咪八斤。|咪咪现在十一斤了，胖得都跳不上沙发。", "咪咪多重？", "十一斤", "八斤"),
    (1, "我是孩子班上的家委会成员。|家委会的事我推掉了，让孩子他爸去。", "我还在家委会吗？", "推掉了", "家委会成员"),
    (1, "我每天下午都要来一杯奶茶。|奶茶已经一个月没碰了，脸上痘痘都少了。", "我还喝奶茶吗？", "一个月没碰", "每天下午"),
    (1, "我周末在上日语班。|日语班我没续费，考完N3就停了。", "我还在上日语班吗？", "没续费", "周末在上"),
    (3, "儿子中午在学校门口的小饭桌吃饭。|儿子中午改在学校食堂吃了，家长们都说干净。", "儿子中午在哪吃饭？", "食堂", "小饭桌"),
    (1, "我的车周三限号。|限号轮换了，这三个月改成周五限。", "我的车哪天限号？", "周五", "周三"),
    (1, "新房还在刷墙。|新房总算装修完了，通通风月底就能入住。", "新房装修到哪一步了？", "装修完了", "刷墙"),
    (1, "我的落户申请还在公示。|助手:落户的事有进展吗？|批下来了，下周去派出所办户口。", "我的落户办得怎么样了？", "批下来了", "公示"),
    (1, "我婚礼的伴娘是小雅。|伴娘那边出了点状况，最后请的是大学室友阿琳。", "我婚礼的伴娘是谁？", "阿琳", "小雅"),
    (3, "我们公司内部沟通用钉钉。|公司全面上了飞书，请假审批都走飞书了。", "我们公司用什么办公软件？", "飞书", "钉钉"),
    (3, "儿子周六上午去学乐高。|儿子嫌原来那个班太幼稚，周六上午去少年宫学编程了。", "儿子周六上午学什么？", "编程", "乐高"),
    (3, "跟我们对接的甲方是王姐。|甲方换人了，现在对接的是新来的小邓。", "甲方对接人是谁？", "小邓", "王姐"),
    (3, "我爸高压一直在160左右。|我爸这几天早晚量的高压都在130出头，医生说药对路了。", "我爸高压多少？", "130", "160"),
    (1, "我一年有5天年假。|工龄满十年了，今年年假有10天。", "我一年有几天年假？", "10天", "5天"),
    (1, "跟我合租的是小吴。|助手:合租还顺利吗？|挺好的，原来的室友回老家考公了，次卧住进来一个程序员，叫阿泽。", "我的室友是谁？", "阿泽", "小吴"),
    (1, "车贷还剩8万没还。|年终奖拿去提前还了一部分，车贷只剩3万了。", "我的车贷还剩多少？", "3万", "8万"),
    (1, "我B站有1200个粉丝。|今天B站粉丝破万了！", "我B站有多少粉丝？", "破万", "1200"),
    (1, "我每天坐公交送孩子上学。|助手:最近送孩子上学还是坐公交吗？|不坐了，买了辆电瓶车，十分钟就到。", "我怎么送孩子上学？", "电瓶车", "公交"),
    (1, "我的手机套餐每月58。|推荐几个好用的记账App？|套餐我降到39一个月的了，流量够用。", "我的手机套餐每月多少钱？", "39", "58"),
    (3, "我们小区的快递驿站在3号楼底商。|今天真折腾，早上送完孩子去医院拿了报告，中午又陪客户吃饭。晚上去取快递才发现驿站挪到了南门便利店旁边，白走了一趟。", "我们小区的快递驿站在哪？", "南门", "3号楼"),
    (1, "我的体检约在3月8号上午。|体检还是那天，时间改到下午两点了。", "我的体检约在几点？", "下午两点", "上午"),
    (1, "我住研究生公寓7号楼312。|还是7号楼，楼上508那间空出来了，我跟宿管申请住了进去。", "我住哪个宿舍？", "508", "312"),
    (3, "我们部门的周报每周五交。|领导说周报提前到每周四下班前交。", "我们部门周报哪天交？", "周四", "周五"),
]
FRESH3_EN_MULTI = [
    (1, "I do spin on Monday nights.|I've added a Thursday kettlebell class as well.", "Which gym classes do I take?", "kettlebell", "spin"),
    (1, "I collect Avios when I fly.|Signed up for Air France's Flying Blue too, I'm flying with them a lot for work.", "Which frequent flyer schemes am I in?", "Flying Blue", "Avios"),
    (3, "Priti next door keeps chickens.|A:Any other animals at Priti's?|She's got two pygmy goats as well, they eat everything.", "What animals does Priti keep?", "goats", "chickens"),
    (1, "I've had my yellow fever jab.|Got the typhoid vaccine yesterday ahead of the Kenya trip.", "Which travel vaccinations have I had?", "typhoid", "yellow fever"),
    (1, "I've got a small swallow tattoo on my wrist.|Finally got the fern tattoo on my shoulder blade at the weekend.", "What tattoos do I have?", "fern", "swallow"),
    (3, "My partner's parents have a cottage in Cornwall.|His parents have bought a flat in Alicante too, for the winters.", "Where do my partner's parents have homes?", "Alicante", "Cornwall"),
    (1, "I get a Riverford veg box every week.|I've started a coffee subscription with Pact as well.", "Which regular deliveries do I get?", "Pact", "Riverford"),
    (1, "We've done the Isle of Skye.|We spent Easter on Arran, another island ticked off.", "Which Scottish islands have we visited?", "Arran", "Skye"),
    (1, "I referee youth football on Saturdays.|I've started umpiring cricket in the summer too.", "Which sports do I officiate?", "cricket", "football"),
    (3, "Our company is ISO 9001 certified.|We passed our ISO 27001 audit this month, so that's another certificate on the wall.", "Which ISO certifications does our company hold?", "27001", "9001"),
]
FRESH3_ZH_MULTI = [
    (1, "我有C1驾照。|今年又把摩托车驾照考下来了，周末能骑车兜风。", "我有哪些驾照？", "摩托车", "C1"),
    (1, "我每周二晚上跟同事打篮球。|周六早上我还在踢业余足球联赛。", "我平时参加哪些球类运动？", "足球", "篮球"),
    (3, "我姥姥在院子里种了一排月季。|姥姥今年又在墙角种了几棵葡萄。", "我姥姥院子里种了什么？", "葡萄", "月季"),
    (1, "我是山姆会员。|Costco的卡我也办了，两家轮着逛。", "我办了哪些超市的会员？", "Costco", "山姆"),
    (1, "我去过九寨沟。|助手:最近还去哪玩了吗？|五一去了趟张家界，人山人海。", "我去过哪些景区？", "张家界", "九寨沟"),
    (3, "我老公会修电脑。|他最近跟着视频学会了贴瓷砖，卫生间是他自己贴的。", "我老公会哪些手艺？", "贴瓷砖", "修电脑"),
    (1, "我家装了扫地机器人。|上个月又添了台烘干机，梅雨天再也不愁了。", "我家有哪些省事的家电？", "烘干机", "扫地机器人"),
    (1, "我加了小区的跑步群。|最近还进了一个读书打卡群。", "我加了哪些群？", "读书打卡群", "跑步群"),
    (3, "我们厂给比亚迪供货。|今年我们还拿下了理想汽车的订单。", "我们厂给哪些车企供货？", "理想", "比亚迪"),
    (1, "我背单词用百词斩。|又下了个扇贝单词，两个一起刷。", "我背单词用哪些App？", "扇贝", "百词斩"),
]
FRESH3_EN_RESTATE = [
    (1, "s", "My boiler is a Worcester Bosch.|The boiler's made by Worcester Bosch.", "What make is my boiler?", "Worcester Bosch", ""),
    (3, "s", "Gran's care home is called Willow Lodge.|Willow Lodge is the name of the home Gran lives in.", "What is Gran's care home called?", "Willow Lodge", ""),
    (1, "s", "Our anniversary dinner is booked at Dishoom for 8 pm.|We've got a table at Dishoom at 8 pm for the anniversary.", "Where is our anniversary dinner booked?", "Dishoom", "8 pm"),
    (1, "m", "I'm a member of the RSPB and the Ramblers.|The Ramblers and the RSPB are the two groups I belong to.", "Which organisations am I a member of?", "Ramblers", "RSPB"),
    (3, "s", "Our on-call rota rotates every Monday.|Every Monday the on-call duty moves on to the next person.", "When does our on-call rota rotate?", "Monday", ""),
    (1, "s", "My Eurostar seat is coach 11, seat 62.|A:Which seat did you get on the Eurostar?|Coach 11, seat 62, by the window.", "What's my seat on the Eurostar?", "seat 62", "coach 11"),
    (3, "s", "My niece Talia is three months old.|Talia's three months now and already smiling.", "How old is Talia?", "three months", ""),
    (1, "s", "I pay £62 a month for my phone contract.|My phone contract comes to £62 a month.", "How much is my phone contract?", "£62", ""),
]
FRESH3_ZH_RESTATE = [
    (1, "s", "我家燃气是华润的。|给我们家供气的是华润燃气。", "我家燃气是哪家公司的？", "华润", ""),
    (3, "s", "我姥爷今年八十三了。|姥爷八十三岁了，身体还挺硬朗。", "我姥爷多大岁数了？", "八十三", ""),
    (1, "m", "我做饭最常用砂锅和铸铁锅。|铸铁锅跟砂锅，是我厨房里用得最多的两口锅。", "我做饭常用哪些锅？", "铸铁锅", "砂锅"),
    (1, "s", "我的工号是A0317。|助手:你的工号是多少来着？|A0317，上次说过的。", "我的工号是多少？", "A0317", ""),
    (3, "s", "小区垃圾车每天晚上七点来收垃圾。|每晚七点，垃圾车会来小区收一趟。", "小区几点收垃圾？", "七点", ""),
    (1, "s", "我闺女的生日是腊月初八。|腊月初八是我闺女生日，正好喝腊八粥。", "我闺女生日是哪天？", "腊月初八", ""),
    (1, "s", "我的车挂的是新能源绿牌。|我那辆车是绿牌，新能源的。", "我的车挂什么牌照？", "绿牌", "新能源"),
    (3, "s", "我们公司的年终奖一般是两个月工资。|年终奖在我们公司通常发两个月工资。", "公司年终奖一般发多少？", "两个月工资", ""),
]
FRESH3_EN_UNRELATED = [
    (1, "s", "My son's football boots are a size 4.|My husband's just ordered himself size 10 trainers.", "What size are my son's football boots?", "size 4", "size 10"),
    (1, "s", "Our home insurance is with LV.|The car insurance went over to Churchill this year.", "Who is our home insurance with?", "LV", "Churchill"),
    (1, "s", "The cat's vet appointment is Tuesday at 3:40.|The dog's booster jab at the vet is now Friday at 10.", "When is the cat's vet appointment?", "Tuesday", "Friday"),
    (3, "s", "Marta's flat is on the fifth floor.|Marta's office is on the twelfth floor.", "Which floor is Marta's office on?", "twelfth", "fifth"),
    (1, "s", "My savings pot is with Monzo.|My pension's with Scottish Widows.", "Who is my pension with?", "Scottish Widows", "Monzo"),
    (1, "s", "My brother's wedding is on 21 June.|My cousin's wedding has been pushed back to 4 October.", "When is my brother's wedding?", "21 June", "4 October"),
    (1, "s", "The kids' iPad passcode is 1357.|The Sky parental PIN is 8642 now.", "What's the Sky parental PIN?", "8642", "1357"),
    (3, "s", "Our building manager is Gerald Finch.|The weekend concierge in our building is Rhona.", "Who is the weekend concierge?", "Rhona", "Gerald Finch"),
    (1, "m", "I'm learning to knit.|My husband's taking up woodturning.", "What am I learning to do?", "knit", "woodturning"),
    (1, "s", "My reading glasses are +1.5.|My distance glasses prescription has changed to -0.75.", "What strength are my reading glasses?", "+1.5", "-0.75"),
    (3, "s", "The Year 6 residential trip is to the Peak District.|The Year 5 trip this year is going to Chester Zoo instead.", "Where is the Year 6 residential trip?", "Peak District", "Chester Zoo"),
    (1, "s", "My Tesco Clubcard number ends in 0921.|My Boots Advantage card ends in 3348.", "What does my Boots card number end in?", "3348", "0921"),
    (3, "s", "Our sprint review is on Thursday afternoons.|Sprint planning has moved to Monday mornings.", "When is our sprint review?", "Thursday", "Monday"),
    (1, "s", "Mum had her hip replacement at Frimley Park.|Dad's cataract surgery is booked at the Royal Surrey.", "Where is Dad's cataract surgery booked?", "Royal Surrey", "Frimley Park"),
]
FRESH3_ZH_UNRELATED = [
    (1, "s", "我医保卡里还有两千多。|我公交卡里只剩86块了。", "我医保卡里还有多少钱？", "两千多", "86块"),
    (1, "s", "小区停车费每月三百。|公司楼下停车现在涨到一小时十块了。", "小区停车费每月多少？", "三百", "十块"),
    (3, "s", "小周的宿舍在6号楼。|小周的实验室在化学楼四层。", "小周的实验室在哪？", "化学楼", "6号楼"),
    (1, "s", "我的股票账户是在华泰证券开的。|我老婆的基金是在支付宝上买的。", "我的股票账户在哪家券商？", "华泰", "支付宝"),
    (1, "s", "我堂哥的婚礼定在国庆节。|我表姐的婚礼改到元旦了。", "我堂哥哪天结婚？", "国庆", "元旦"),
    (1, "s", "孩子平板的解锁密码是0520。|路由器后台密码我改成了admin888。", "路由器后台密码是什么？", "admin888", "0520"),
    (3, "s", "我们单位的食堂在B座地下一层。|单位的健身房在C座五楼。", "单位健身房在哪？", "C座五楼", "B座地下一层"),
    (1, "m", "我最近在学剪视频。|我老公迷上了做木工。", "我最近在学什么？", "剪视频", "木工"),
    (1, "s", "我的老花镜是一百度的。|我妈的老花镜换成了三百度的。", "我的老花镜多少度？", "一百度", "三百度"),
    (3, "s", "我们公司今年的团建去千岛湖。|隔壁部门的团建改去莫干山了。", "我们公司团建去哪？", "千岛湖", "莫干山"),
    (1, "s", "我的京东会员明年3月到期。|我的网易云黑胶会员下个月到期。", "我的网易云会员什么时候到期？", "下个月", "明年3月"),
    (3, "s", "楼下药店晚上十点关门。|对面超市现在开到晚上十一点了。", "楼下药店几点关门？", "十点", "十一点"),
    (1, "s", "我婆婆的降压药在社区卫生站开。|我爸的降糖药现在去市二院开了。", "我爸的降糖药在哪开？", "市二院", "社区卫生站"),
    (1, "s", "我的美团账号绑的是我老婆的手机号。|我的淘宝绑的是我自己139开头那个号。", "我的美团账号绑的是谁的手机号？", "老婆", "139开头"),
]
# fmt: on

# A fourth fresh set (session 21), written blind (without reading the rules it is measured on, nor running the
# bench on it), for ``update_pairs_fresh4.jsonl`` (``bench.updates --data``). Same rows as above; ids from 600.
# fmt: off
FRESH4_EN_UPDATES = [
    (1, "My driving instructor is Gary from the Red school.|I've booked my next six lessons with Priyanka, she's far calmer on roundabouts.", "Who is my driving instructor?", "Priyanka", "Gary"),
    (1, "Our allotment is plot 14 on Hanley Road.|Got the keys for plot 31 this morning, right next to the water trough and far sunnier than our last one.", "Which allotment plot do we have?", "plot 31", "plot 14"),
    (1, "I've given blood nine times.|Donation number ten done this afternoon, they gave me a little bronze badge.", "How many times have I given blood?", "number ten", "nine times"),
    (3, "Nan gets about with a walking stick.|Nan's swapped the stick for a rollator with a little seat, she takes it to the shops every day.", "What does Nan use to get around?", "rollator", "walking stick"),
    (3, "Our pub quiz team is called The Quizzly Bears.|Jo talked everyone round, so we entered last night as Les Quizerables and came second.", "What is our pub quiz team called?", "Quizerables", "Quizzly"),
    (3, "Oscar's Cub pack meets in St Luke's church hall.|Dropped Oscar at Cubs in the scout hut on Vine Street tonight, they've finally got a building of their own.", "Where does Oscar's Cub pack meet?", "Vine Street", "St Luke's"),
    (1, "I shave with a Gillette Fusion.|A:How are you getting on with shaving these days?|Finally switched to electric, a Braun Series 7, so much quicker in the mornings.", "What do I shave with?", "Braun", "Gillette"),
    (1, "Our house is in council tax band C.|The revaluation moved our house up to band D, not worth appealing apparently.", "What council tax band is our house in?", "band D", "band C"),
    (1, "My citizenship ceremony is on 9 October.|A:Is your citizenship ceremony still going ahead in October?|They postponed it to 22 January, the registrar is off sick.", "When is my citizenship ceremony?", "22 January", "9 October"),
    (3, "Amara's best friend is Poppy from her class.|Amara informed me at bedtime that her best friend in the whole world is Zainab, the girl who joined in January.", "Who is Amara's best friend?", "Zainab", "Poppy"),
    (1, "The loft conversion is still at the quote stage.|Builders started on the loft on Monday, there's a skip on the drive and dust everywhere.", "Where are we with the loft conversion?", "Builders started", "quote stage"),
    (1, "Our season tickets are in the North Stand, row K.|Same stand next season, but we've moved down to row D, right behind the dugout.", "Which row are our season tickets in?", "row D", "row K"),
    (1, "I marshal at parkrun most Saturdays.|I quit marshalling at parkrun, Saturday mornings are the twins' swimming lessons.", "Do I still marshal at parkrun?", "quit marshalling", "most Saturdays"),
    (1, "I post my bakes on Instagram as @dana.bakes.|Deleted my Instagram account last week, it was eating my evenings.", "Am I on Instagram?", "Deleted", "@dana.bakes"),
    (3, "Halden Books is owned by the Grove family.|Waterstones bought Halden Books in the autumn, luckily the staff kept their jobs.", "Who owns Halden Books?", "Waterstones", "Grove family"),
    (3, "The farmers' market is held on Market Square on Sundays.|The farmers' market has moved to the cathedral close, loads more room for the stalls.", "Where is the farmers' market held?", "cathedral close", "Market Square"),
    (3, "School dinners at the kids' school cost £2.40 a day.|Letter from the school: dinners have gone up to £2.65 a day.", "How much do school dinners cost?", "£2.65", "£2.40"),
    (3, "The last bus home from town leaves at 11:20.|Missed the last bus home again, it now goes at 10:50 since they changed the timetable.", "When does the last bus home from town leave?", "10:50", "11:20"),
    (1, "I run with Ealing Eagles on Tuesday nights.|What's a good breakfast before a 10-mile race?|Paid my first subs to Thames Hare and Hounds tonight, my old club's sessions kept clashing with work.", "Which running club am I in?", "Thames Hare", "Ealing"),
    (3, "Our window cleaner charges £18 a visit.|Can you help me word a birthday message for my aunt?|The window cleaner has put his price up to £22 a visit, he blames diesel.", "How much does our window cleaner charge?", "£22", "£18"),
    (1, "I read on a Kindle Paperwhite.|A:Are you still reading on the Paperwhite?|It went in the bath, so I'm on a Kobo Libra.", "What e-reader do I use?", "Kobo", "Kindle"),
    (3, "Mum's morning carer is a lady called Bernadette.|A:How is your mum getting on with her carers?|Really well, Sunita comes every morning and even does Mum's hair.", "Who is Mum's morning carer?", "Sunita", "Bernadette"),
    (1, "Hays are handling my job search.|Michael Page got me two interviews in a week, they're the agency I'm working with for the job hunt.", "Which recruitment agency is handling my job search?", "Michael Page", "Hays"),
    (3, "Aunt Carol is in hospital with pneumonia.|Aunt Carol's back home and pottering in the garden again.", "How is Aunt Carol doing?", "back home", "in hospital"),
    (1, "We keep the family photos in Google Photos.|All the family photos live on a Synology box in the hall cupboard, I got fed up paying for cloud storage.", "Where do we keep the family photos?", "Synology", "Google Photos"),
    (1, "I'm on 8% commission.|They changed the sales plan, I'm now on 10% commission above target.", "What commission rate am I on?", "10%", "8%"),
    (3, "The vicar at St Mary's is Reverend Howe.|Reverend Adeyemi was licensed as vicar of St Mary's on Sunday, the church was packed.", "Who is the vicar at St Mary's?", "Adeyemi", "Howe"),
    (1, "My hot desk is at WeWork Moorgate.|I switched my hot desk to Fora in Clerkenwell, cheaper and ten minutes off the commute.", "Where is my co-working desk?", "Clerkenwell", "Moorgate"),
    (3, "My cousin Bilal is waiting for a kidney transplant.|Bilal had his transplant on Friday and the new kidney's working.", "What's the latest on Bilal's kidney?", "had his transplant", "waiting for"),
    (1, "My PhD viva is on 3 December.|Could you suggest questions examiners tend to ask?|My external examiner had a clash, so the viva has moved to 16 January.", "When is my PhD viva?", "16 January", "3 December"),
]
FRESH4_ZH_UPDATES = [
    (3, "我妈每天晚上在小区东门的空地跳广场舞。|我妈她们那队嫌小区门口车多太吵，每天晚上拎着音箱去河堤公园跳。", "我妈在哪跳广场舞？", "河堤公园", "东门"),
    (3, "儿子身高118厘米。|昨天给儿子量身高，128厘米了，裤子都短了一截。", "儿子多高？", "128", "118"),
    (1, "我每个月给一个做菜的UP主充电30块。|那个UP主大半年没更新了，充电我取消了。", "我还在给那个做菜的UP主充电吗？", "取消", "30块"),
    (1, "我早上习惯泡一杯龙井。|胃不好以后听老中医的，早上一杯熟普，暖胃。", "我早上喝什么茶？", "熟普", "龙井"),
    (3, "我们楼的管家是小郑。|楼栋管家换人了，新来的叫小冉，今天挨家挨户发了联系卡。", "我们楼的管家是谁？", "小冉", "小郑"),
    (1, "我周末在琴行兼职教吉他。|助手:周末还去琴行上课吗？|不去了，琴行关门了，我在家里带两个学生。", "我周末在哪教吉他？", "在家里带", "琴行兼职"),
    (3, "我爸的心脏支架手术排在下个月。|助手:你爸的手术做了吗？|做完了，昨天出院，医生说恢复得不错。", "我爸的支架手术怎么样了？", "做完了", "排在下个月"),
    (1, "我的芝麻分是650。|今天看了一眼芝麻分，702了，能免押金租充电宝了。", "我的芝麻分多少？", "702", "650"),
    (1, "我还在喂奶，孩子没断奶。|孩子满一岁，上周断奶了。", "孩子断奶了吗？", "上周断奶", "还在喂奶"),
    (3, "我们小区业主群的群主是老韩。|业主群群主转给了302的刘姐，原来那位说年纪大了管不过来。", "我们小区业主群的群主是谁？", "刘姐", "老韩"),
    (1, "我每周六带孩子去市图书馆借书。|新开的区图书馆离家近，绘本也多，以后我们周六改去那边了。", "我周六带孩子去哪个图书馆？", "区图书馆", "市图书馆"),
    (3, "我家装修的工长是老邓。|装修公司换了个工长，是个小伙子叫阿斌，天天在群里发进度。", "我家装修的工长是谁？", "阿斌", "老邓"),
    (1, "我跑步戴的是小米手环。|手环送我妈了，我换了块佳明手表，配速心率看得清清楚楚。", "我跑步戴什么？", "佳明", "小米"),
    (1, "我的离职申请还在走流程。|离职手续办完了，给自己放一个月假再说。", "我的离职手续办得怎么样了？", "办完了", "走流程"),
    (3, "闺女中国舞考到了五级。|闺女这次中国舞考级拿了七级证书，老师说跳得很稳。", "闺女中国舞考到几级了？", "七级", "五级"),
    (1, "我每天晚上九点半下楼遛狗。|天热了，遛狗挪到十点多，等地面凉下来再出门。", "我晚上几点遛狗？", "十点多", "九点半"),
    (1, "我们家一个月电费三百左右。|屋顶装了光伏，电费现在一个月才八十来块。", "我家一个月电费多少？", "八十来块", "三百左右"),
    (3, "我舅舅在县城开了家五金店。|帮我算算三十平米铺地砖大概要多少钱？|我舅舅那店盘出去了，回村里承包了几十亩鱼塘。", "我舅舅是做什么的？", "鱼塘", "五金店"),
    (1, "我的雅思是6.5分。|英国的硕士一般读几年？|雅思又考了一次，总分7.5，够那所学校的线了。", "我的雅思多少分？", "7.5", "6.5"),
    (3, "我们单位班车早上七点十分发车。|晚上做个什么汤比较好？|单位班车发车时间调成七点半了，能多睡二十分钟。", "单位班车早上几点发车？", "七点半", "七点十分"),
    (1, "我的基金亏了两万。|助手:基金回本了吗？|回本了，还赚了三千多。", "我的基金是亏是赚？", "赚了三千多", "亏了两万"),
    (3, "我女儿在深圳实习。|助手:你女儿实习结束了吗？|结束了，她拿了杭州一家公司的offer，上周已经去报到了。", "我女儿在哪个城市工作？", "杭州", "深圳"),
    (3, "我家宝宝小名叫豆丁。|宝宝奶奶非要叫她糖糖，叫着叫着全家都这么叫了。", "我家宝宝小名叫什么？", "糖糖", "豆丁"),
    (1, "我在顺丰跑快递。|京东物流给得多，我上周入职了，片区还是这一块。", "我在哪家快递公司上班？", "京东", "顺丰"),
    (3, "我们公司体检一直在美年大健康做。|今年公司体检安排在爱康国宾，离公司两站地。", "我们公司体检在哪做？", "爱康", "美年"),
    (1, "我们家订的鲜奶每天送一瓶。|牛奶还是那家，我加到每天两瓶了，孩子喝得多。", "我们家每天订几瓶牛奶？", "两瓶", "一瓶"),
    (3, "儿子期末考试在7月3号。|学校发通知，期末考提前到6月28号。", "儿子期末考试是哪天？", "6月28号", "7月3号"),
    (1, "我每天晚上都刷抖音到一两点。|抖音我卸载了，晚上十一点就上床。", "我晚上还刷抖音吗？", "卸载", "一两点"),
    (1, "我攒的首付有二十万了。|首付攒到三十五万了，年底差不多能看房。", "我首付攒了多少？", "三十五万", "二十万"),
    (3, "孩子打疫苗一直在街道社区医院。|这次打疫苗去的是妇幼保健院，社区那边说以后都去那儿打。", "孩子在哪打疫苗？", "妇幼保健院", "街道社区医院"),
]
FRESH4_EN_MULTI = [
    (1, "I've seen a kingfisher on the canal this year.|Spotted an otter by the weir on Sunday too, first one ever!", "Which wildlife have I spotted on my walks this year?", "otter", "kingfisher"),
    (1, "We've seen Hamilton in the West End.|Saw Les Mis on Saturday, so that's two big musicals done.", "Which West End musicals have we seen?", "Les Mis", "Hamilton"),
    (3, "My daughter Rosie has eczema.|The GP says Rosie has mild asthma as well.", "What conditions does Rosie have?", "asthma", "eczema"),
    (1, "I can touch-type.|I learnt British Sign Language this winter, I can hold a basic conversation.", "Which skills do I have?", "Sign Language", "touch-type"),
    (3, "Our charity runs a youth club.|The charity opened a night shelter in November too.", "What services does our charity run?", "night shelter", "youth club"),
    (1, "I log my runs on Strava.|A:Do you track your runs anywhere else?|Yes, I've started using Garmin Connect too, it syncs with my watch.", "Which apps do I log my runs on?", "Garmin Connect", "Strava"),
    (1, "I've climbed Snowdon.|Did Scafell Pike on the bank holiday, two of the three peaks done!", "Which mountains have I climbed?", "Scafell Pike", "Snowdon"),
    (3, "My dad has a sister in Canada.|Turns out Dad has a half-brother in Cork, we only found out through a DNA test.", "Which siblings does Dad have?", "half-brother", "sister"),
    (1, "I can make a decent sourdough.|I've nailed croissants this month too.", "What can I bake well?", "croissants", "sourdough"),
    (1, "We have life insurance with Royal London.|We took out income protection as well, through the same broker.", "Which insurance policies do we have?", "income protection", "life insurance"),
]
FRESH4_ZH_MULTI = [
    (1, "我有一张工行的卡。|为了存定期，又在邮储办了张卡。", "我有哪些银行的卡？", "邮储", "工行"),
    (3, "我爸年轻时当过兵。|我才知道我爸退伍后还在煤矿干过几年。", "我爸年轻时干过哪些工作？", "煤矿", "当过兵"),
    (1, "我看过五月天的演唱会。|上个月又去看了周深的演唱会，嗓子太好了。", "我看过谁的演唱会？", "周深", "五月天"),
    (1, "我给自己买了重疾险。|今年又给自己加了份百万医疗险。", "我给自己买了哪些保险？", "百万医疗险", "重疾险"),
    (3, "我们律所主要做婚姻家事。|今年我们律所又开了知识产权业务。", "我们律所做哪些业务？", "知识产权", "婚姻家事"),
    (1, "我在小红书上分享做饭。|助手:还在别的平台发吗？|视频号也开了，同步发。", "我在哪些平台发做饭的内容？", "视频号", "小红书"),
    (1, "我在杭州有套房。|去年在老家县城也买了套小的，给爸妈住。", "我在哪些地方有房？", "县城", "杭州"),
    (3, "女儿会背《静夜思》。|女儿这周又学会了《咏鹅》，天天在家念叨。", "女儿会背哪些诗？", "咏鹅", "静夜思"),
    (1, "我家有一辆电动车。|家里又添了辆小汽车，接送孩子方便多了。", "我家有哪些交通工具？", "小汽车", "电动车"),
    (1, "我在网易云课堂买了PS课。|又报了个B站上的Excel课，两个一起学。", "我报了哪些网课？", "Excel", "PS课"),
]
FRESH4_EN_RESTATE = [
    (1, "s", "My National Insurance number ends in 47C.|The last bit of my NI number is 47C.", "What does my National Insurance number end in?", "47C", ""),
    (3, "s", "My brother-in-law Hamid is a train driver.|Hamid drives trains for Northern.", "What does Hamid do for a living?", "train", ""),
    (1, "m", "I'm godmother to Effie and Lachlan.|Lachlan and Effie are my two godchildren.", "Who are my godchildren?", "Effie", "Lachlan"),
    (1, "s", "The piano tuner is coming on Thursday morning.|A:When's the piano tuner due?|Thursday morning, he said.", "When is the piano tuner coming?", "Thursday", ""),
    (3, "s", "The village fete is on the last Saturday in June.|Last Saturday in June is fete day in the village.", "When is the village fete?", "last Saturday in June", ""),
    (1, "s", "I take a size 12 in dresses.|Dresses, I'm a 12.", "What dress size am I?", "12", ""),
    (3, "s", "The kids' music school charges £15 a lesson.|Each lesson at the music school is £15.", "How much does the music school charge per lesson?", "£15", ""),
    (3, "s", "My mum's maiden name is Gallagher.|Gallagher was Mum's surname before she married.", "What is Mum's maiden name?", "Gallagher", ""),
]
FRESH4_ZH_RESTATE = [
    (1, "s", "我这辆车是2019年买的。|2019年买的车，一直开到今天。", "我的车是哪年买的？", "2019", ""),
    (3, "s", "我姑父在铁路上开火车。|姑父是开火车的，铁路局的司机。", "我姑父做什么工作？", "开火车", ""),
    (1, "m", "我手机上常用的导航是高德和百度地图。|导航我就用百度地图跟高德这两个。", "我用哪些导航App？", "百度", "高德"),
    (1, "s", "燃气表周四上午来换。|助手:换燃气表是哪天来着？|周四上午，物业通知的。", "什么时候来换燃气表？", "周四上午", ""),
    (3, "s", "村里的庙会是正月十五。|正月十五那天，村里赶庙会。", "村里的庙会是哪天？", "正月十五", ""),
    (1, "s", "我衣服都穿XL的。|XL是我平时穿的衣服尺码。", "我穿多大码的衣服？", "XL", ""),
    (3, "s", "孩子的舞蹈课一节课120。|舞蹈班一节课收120块。", "孩子的舞蹈课一节多少钱？", "120", ""),
    (3, "s", "我外婆娘家姓苏。|外婆是苏家的女儿，娘家在镇上。", "我外婆娘家姓什么？", "苏", ""),
]
FRESH4_EN_UNRELATED = [
    (1, "s", "My son's piano exam is on 7 March.|My daughter's violin exam got moved to 21 March.", "When is my son's piano exam?", "7 March", "21 March"),
    (1, "s", "Our front door key is on the red fob.|The shed key now lives on the blue fob.", "Which fob is the front door key on?", "red fob", "blue fob"),
    (3, "s", "The Year 4 teacher is Mr Okoro.|The Year 4 teaching assistant is now Miss Blake.", "Who is the Year 4 teacher?", "Okoro", "Blake"),
    (1, "s", "My car's MOT is due in April.|My husband's car's MOT is due in September.", "When is my car's MOT due?", "April", "September"),
    (1, "s", "I'm training for the Great North Run.|My brother's signed up for the Paris Marathon.", "Which race am I training for?", "Great North Run", "Paris Marathon"),
    (3, "s", "The pharmacy on Kings Road opens at 8.|The post office on Kings Road has changed its opening time to 9:30.", "What time does the pharmacy on Kings Road open?", "at 8", "9:30"),
    (1, "s", "My hospital number at St James's is RX40712.|My NHS number is 485 777 3456.", "What's my hospital number at St James's?", "RX40712", "485 777 3456"),
    (1, "s", "Grandma's care plan review is on the 14th.|Grandad's hearing aid appointment has been rebooked for the 28th.", "When is Grandma's care plan review?", "14th", "28th"),
    (1, "s", "My bedroom is painted sage green.|The kids' bathroom is painted duck-egg blue.", "What colour is the kids' bathroom?", "duck-egg blue", "sage green"),
    (3, "s", "Our neighbour's son Theo is at Durham.|Our neighbour's daughter Lottie is at Exeter.", "Which university is Lottie at?", "Exeter", "Durham"),
    (1, "s", "My flight to Dubai departs from Terminal 5.|My connecting flight leaves from Terminal 3 in Dubai.", "Which terminal does my connecting flight leave from?", "Terminal 3", "Terminal 5"),
    (1, "s", "I bought the sofa from DFS.|The dining table's coming from John Lewis, they've changed the delivery to Friday.", "Where is the dining table coming from?", "John Lewis", "DFS"),
    (3, "s", "The school's summer term starts on 15 April.|The school's half-term break is 27 to 31 May.", "When is the school's half-term break?", "27 to 31 May", "15 April"),
    (1, "m", "I do Zumba on Wednesdays.|My sister's just taken up aqua aerobics.", "What has my sister taken up?", "aqua aerobics", "Zumba"),
]
FRESH4_ZH_UNRELATED = [
    (1, "s", "我那辆车的保养约在周六上午。|我老婆的车保养改到下周二了。", "我的车保养约在什么时候？", "周六上午", "下周二"),
    (1, "s", "我的身份证放在抽屉最上层。|户口本现在放到保险柜里了。", "我的身份证放在哪？", "抽屉最上层", "保险柜"),
    (3, "s", "儿子班的语文老师是唐老师。|儿子班的数学老师换成了邱老师。", "儿子班的语文老师是谁？", "唐老师", "邱老师"),
    (1, "s", "我妈的生日是农历三月初六。|我婆婆的生日是农历八月十二。", "我妈生日是哪天？", "三月初六", "八月十二"),
    (1, "s", "我在准备教资面试。|我表弟报了今年的公务员考试。", "我最近在备考什么？", "教资面试", "公务员考试"),
    (3, "s", "社区卫生服务站早上七点半开门。|旁边的银行网点改成九点开门了。", "社区卫生服务站几点开门？", "七点半", "九点"),
    (1, "s", "我在市一院的就诊卡号是K20316。|我的医保个人账户编号是3206881。", "我在市一院的就诊卡号是多少？", "K20316", "3206881"),
    (1, "s", "楼上漏水，维修师傅约了15号来。|小区电梯年检改到28号了。", "维修师傅哪天来？", "15号", "28号"),
    (1, "s", "我家客厅铺的是木地板。|厨房铺的是防滑砖。", "我家厨房铺的是什么？", "防滑砖", "木地板"),
    (3, "s", "我同事小罗的老家在赣州。|小罗的老婆老家在潮州。", "小罗老婆的老家在哪？", "潮州", "赣州"),
    (1, "s", "我坐的高铁是G1234次。|我爸妈坐的是D2258次，下午到。", "我爸妈坐的哪趟车？", "D2258", "G1234"),
    (1, "s", "我家冰箱是海尔的。|洗衣机买的是小天鹅，安装时间改到周五了。", "我家洗衣机是什么牌子？", "小天鹅", "海尔"),
    (3, "s", "学校五一放假五天。|学校端午节放三天。", "学校端午节放几天？", "三天", "五天"),
    (1, "m", "我最近在练八段锦。|我老公开始学萨克斯了。", "我老公开始学什么？", "萨克斯", "八段锦"),
]
# fmt: on

# A fifth fresh set (session 22), written blind (without reading the rules it is measured on, nor running the
# bench on it), for ``update_pairs_fresh5.jsonl`` (``bench.updates --data``). Same rows as above; ids from 700.
# fmt: off
FRESH5_EN_UPDATES = [
    (1, "My online chess rating is about 1420.|Won four blitz games in a row last night, my rating's sitting at 1511, highest it's ever been.", "What's my online chess rating?", "1511", "1420"),
    (3, "Our eldest, Rhys, works Saturdays at Greggs.|A:Is Rhys still doing Saturdays at Greggs?|He's at the garden centre on Saturdays, better pay and he gets to be outdoors.", "Where does Rhys work on Saturdays?", "garden centre", "Greggs"),
    (1, "I give £10 a month to Shelter.|I've upped my Shelter direct debit to £15 a month.", "How much do I give to Shelter each month?", "£15", "£10"),
    (1, "I'm a green belt in judo.|Graded on Sunday and came home with my brown belt, my sensei couldn't stop grinning.", "What belt am I in judo?", "brown belt", "green belt"),
    (1, "We're going to call the baby Iris.|Maeve Rose arrived at 3am on Tuesday, seven pounds two; one look at her and the name on our list didn't fit.", "What is our baby called?", "Maeve", "Iris"),
    (1, "My notice period is one month.|A:Did signing the new contract affect your notice period?|Yes, it went up to three months when I signed.", "How long is my notice period?", "three months", "one month"),
    (1, "Pilates is at 7 pm on Thursdays at the leisure centre.|Same night for Pilates, but the leisure centre has moved the class to 6 pm.", "What time is my Pilates class?", "6 pm", "7 pm"),
    (1, "We're flying to Crete from Gatwick on the 12th.|Still Crete on the 12th, but we're going out of Stansted, the airline cut that route.", "Which airport are we flying to Crete from?", "Stansted", "Gatwick"),
    (3, "Jude's orthodontist says his braces come off in March.|Jude's braces came off today, he keeps grinning at himself in the mirror.", "Does Jude still have braces?", "came off today", "come off in March"),
    (1, "My Ryanair refund is still pending.|The Ryanair refund finally landed in my account this morning.", "Has my Ryanair refund come through?", "landed", "pending"),
    (1, "Our car's at Kwik Fit waiting for a clutch.|Picked the car up from Kwik Fit this afternoon, the clutch is sorted and it drives like a dream.", "Is our car still in the garage?", "Picked the car up", "waiting for a clutch"),
    (1, "I tutor GCSE maths on Thursday evenings.|I've given up the tutoring, my own kids need the help with homework more.", "Do I still tutor maths?", "given up", "Thursday evenings"),
    (1, "I foster kittens for the RSPCA.|A:Any foster kittens in at the moment?|We're not fostering anymore, we kept the last two and the house is full.", "Do I foster kittens?", "not fostering", "for the RSPCA"),
    (3, "My parents' caravan is on pitch 42 at Sandy Bay.|Mum and Dad are still at Sandy Bay, but the site has moved their caravan to pitch 7, right by the dunes.", "Which pitch is my parents' caravan on?", "pitch 7", "pitch 42"),
    (3, "The first aider on our floor is Delphine.|Kofi took over as first aider for our floor when the old one went part-time.", "Who is the first aider on our floor?", "Kofi", "Delphine"),
    (1, "I listen on Sony WH-1000XM4 headphones.|Treated myself to AirPods Max for my birthday, the noise cancelling on the Tube is unreal.", "Which headphones do I use?", "AirPods Max", "Sony"),
    (1, "Our polling station is the primary school on Ash Grove.|What time do the polls close on election day?|Went to vote at the Methodist hall on Cross Street this morning, the school's having building work done.", "Where is our polling station?", "Methodist hall", "Ash Grove"),
    (3, "The Sunday service at St Aidan's is at 10:30.|St Aidan's has brought the Sunday service forward to 9:45 for the summer.", "What time is the Sunday service at St Aidan's?", "9:45", "10:30"),
    (1, "My FTP on Zwift is 210 watts.|Can you recommend a turbo trainer mat that isn't too noisy?|Did the ramp test this morning and it put my FTP at 236 watts, the winter block paid off.", "What's my FTP?", "236", "210"),
    (3, "Our tortoise Shelly is hibernating in the fridge.|A:How's Shelly doing?|She's awake and trundling about on the lawn, already polished off a dandelion.", "Is Shelly still hibernating?", "awake", "in the fridge"),
    (1, "My student loan balance is £27,400.|Any ideas for a cheap birthday present for a ten-year-old?|Checked the SLC website: after this year's repayments the balance is £24,950.", "How much is left on my student loan?", "£24,950", "£27,400"),
    (3, "The kids' football club is sponsored by Harrison's Motors.|The under-9s' shirts arrived with Dalton Plumbing across the front, they've signed a three-year deal with the club.", "Who sponsors the kids' football club?", "Dalton Plumbing", "Harrison's"),
    (1, "I've got jury service starting on 3 June.|A:Is jury service still in June for you?|I got it deferred to 9 September because of my exams.", "When is my jury service?", "9 September", "3 June"),
    (3, "The kids' sports day is on Friday the 20th.|Sports day got rained off, the school has rescheduled it for Tuesday the 24th.", "When is the kids' sports day?", "Tuesday the 24th", "Friday the 20th"),
    (1, "I shoot on a Canon 80D.|I switched to a Fujifilm X-T5, it's way lighter to carry up hills.", "What camera do I use?", "Fujifilm", "Canon"),
    (1, "Our regular Friday pub is the Crown on the high street.|Friday drinks are at the Fox and Fiddle, the old place went gastro and doubled its prices.", "Which pub do we go to on Fridays?", "Fox and Fiddle", "Crown"),
    (1, "My Saturday tennis partner is Graham.|I play Saturdays with Lucinda from the club now, my old partner's Achilles will take months to heal.", "Who do I play tennis with on Saturdays?", "Lucinda", "Graham"),
    (1, "I'm on probation at work until the end of March.|Passed my probation review today, the contract's permanent.", "Am I still on probation at work?", "Passed my probation", "until the end of March"),
    (3, "Nina runs Bramble & Co out of her spare room.|Nina signed the lease on a unit at Westgate Business Park, Bramble & Co has proper premises at last.", "Where is Bramble & Co based?", "Westgate", "spare room"),
    (3, "Esme's reading book band is orange.|A:Has Esme gone up a book band yet?|Yes, she's on turquoise books now and very proud of it.", "Which reading band is Esme on?", "turquoise", "orange"),
]
FRESH5_ZH_UPDATES = [
    (3, "闺女在班里当学习委员。|今天开家长会，班主任夸闺女这学期班长当得有模有样，同学们都服她。", "闺女在班里当什么班干部？", "班长", "学习委员"),
    (1, "我普通话是二级乙等。|普通话补考成绩出来了，升到了二级甲等，总算够上教语文的要求。", "我普通话是几级？", "二级甲等", "二级乙等"),
    (1, "我鱼缸里养了六条孔雀鱼。|鱼缸里的孔雀鱼下了一窝小崽，数了数连大带小二十多条。", "我鱼缸里有多少条孔雀鱼？", "二十多条", "六条"),
    (1, "今年过年回我婆家过。|助手:过年的安排定了吗？|定了，带上两边老人一起去海南过年，机票都买好了。", "今年去哪过年？", "海南", "婆家"),
    (3, "我爸退休金每个月四千二。|今年养老金上调，我爸现在每月能领四千五。", "我爸每月退休金多少？", "四千五", "四千二"),
    (1, "我们公司早上九点打卡。|公司开始搞弹性上班，早上十点前到都不算迟到。", "我早上最晚几点到公司？", "十点前", "九点"),
    (3, "我妈用的是老人机。|给我妈换了个智能手机，现在天天在家族群里发表情包。", "我妈用什么手机？", "智能手机", "老人机"),
    (3, "老家的房子一直在等拆迁。|拆迁款打到我爸卡上了，爸妈在镇上看中了一套电梯房。", "老家房子拆迁的事怎么样了？", "拆迁款", "等拆迁"),
    (1, "我在淘宝上开了家卖茶叶的小店。|现在茶叶店只在拼多多上开着，流量大，之前那个平台的店我关了。", "我的茶叶店开在哪个平台？", "拼多多", "淘宝"),
    (3, "我老公在苏州上班，周末才回家。|帮我想想孩子生日蛋糕订什么口味好？|老公申请调回上海分部了，以后天天能回家吃晚饭。", "我老公在哪个城市上班？", "上海", "苏州"),
    (1, "租房押金还压在房东那，两个月房租呢。|押金退回来了，房东扣了两百块清洁费。", "我的租房押金拿回来了吗？", "退回来了", "压在房东那"),
    (3, "儿子的同桌是个叫浩浩的小男孩。|儿子放学回来说，老师把他调到跟萱萱坐一桌，萱萱老借他的橡皮。", "儿子的同桌是谁？", "萱萱", "浩浩"),
    (1, "我的职级是P6。|我已经升到P7了，晋升答辩上周过的。", "我是什么职级？", "P7", "P6"),
    (3, "我们村的村支书是老贺叔。|村里换届，选了个回乡的大学生蒋涛当村支书，才二十八岁。", "我们村的村支书是谁？", "蒋涛", "老贺"),
    (1, "我们看中了保利的一个楼盘。|助手:房子定下来了吗？|定了，交了绿城桂语的定金，离孩子学校就一站路。", "我们定的是哪个楼盘？", "绿城桂语", "保利"),
    (1, "房产证还没下来。|今天去不动产登记中心把房产证领回来了，红本本拿在手里踏实多了。", "我的房产证拿到了吗？", "领回来了", "还没下来"),
    (3, "宝宝白天睡两觉。|宝宝一岁半了，上午那觉怎么哄都不肯睡，白天就中午睡一觉。", "宝宝白天睡几觉？", "中午睡一觉", "睡两觉"),
    (3, "我表弟在富士康流水线上班。|表弟辞了流水线的活，跟同学在县城合伙开了个汽修铺，生意还不错。", "我表弟做什么工作？", "汽修铺", "富士康"),
    (1, "年夜饭订在全聚德。|助手:年夜饭的包间落实了吗？|那家没订上，订到了楼下的徽菜馆，走两步就到。", "年夜饭订在哪家？", "徽菜馆", "全聚德"),
    (1, "我每个月个税扣八百多。|个人所得税App里专项附加扣除怎么填？|房贷和赡养老人都填上了，这个月工资条上个税只扣了三百出头。", "我每个月扣多少个税？", "三百出头", "八百多"),
    (1, "体检查出甲状腺结节，医生让三个月复查一次。|复查结果出来了，结节没长，医生说以后一年查一次就行。", "我的甲状腺结节多久复查一次？", "一年查一次", "三个月"),
    (3, "孩子在实验二小东校区上学。|还是实验二小，不过四年级开始转到西校区上课了。", "孩子在实验二小哪个校区？", "西校区", "东校区"),
    (1, "我家布丁还没做绝育。|布丁上周做完绝育了，这几天戴着伊丽莎白圈，走路老撞墙。", "布丁做绝育了吗？", "做完绝育", "还没做"),
    (1, "我家暖气费一年两千四。|暖气片不热是不是得放放气？|今年暖气费按实际使用面积算，交了两千一。", "我家暖气费一年多少？", "两千一", "两千四"),
    (3, "外婆住在12床。|助手:外婆住院还顺利吗？|挺好的，护士给她调到了靠窗的15床，晒得到太阳。", "外婆住几床？", "15床", "12床"),
    (3, "儿子放学后在托管班写作业。|助手:儿子放学还去托管班吗？|不去了，他奶奶搬来跟我们住，每天三点半接他回家。", "儿子放学后谁照看？", "奶奶", "托管班"),
    (1, "我在招行的理财经理是小汤。|招行的理财经理换成了周蕾，说原来那位调去总行了。", "我在招行的理财经理是谁？", "周蕾", "小汤"),
    (3, "我外甥女在读幼儿园中班。|外甥女九月份背上书包上一年级了，天天嚷着要写作业。", "我外甥女在读什么？", "一年级", "中班"),
    (1, "我每天早上去江边冬泳。|冬泳我停了，上个月感冒发烧住了几天院，家里人不让去了。", "我还冬泳吗？", "冬泳我停了", "江边"),
    (3, "楼下那家便利店是全家。|楼下便利店装修了半个月，重新开业挂的是罗森的招牌。", "楼下便利店是哪家的？", "罗森", "全家"),
]
FRESH5_EN_MULTI = [
    (1, "I've been to Anfield.|Ticked off St James' Park on Saturday, two grounds down, ninety to go.", "Which football grounds have I been to?", "St James' Park", "Anfield"),
    (1, "We've redone the kitchen.|The bathroom's finished as well, tiles, shower, the lot.", "Which rooms have we renovated?", "bathroom", "kitchen"),
    (1, "The Hendersons are coming to our barbecue on Saturday.|A:Anyone else coming on Saturday?|Oluwaseun and his boyfriend said yes this morning.", "Who's coming to our barbecue?", "Oluwaseun", "Hendersons"),
    (3, "Ben's taking GCSE Spanish.|Ben's picked computer science as one of his options too.", "Which GCSE subjects is Ben taking?", "computer science", "Spanish"),
    (1, "I've done Glastonbury.|Went to Green Man in August, my second festival and definitely not my last.", "Which music festivals have I been to?", "Green Man", "Glastonbury"),
    (3, "Grandad did his national service in Aden.|Turns out Grandad was stationed in Cyprus as well, Nan found the photos.", "Where was Grandad stationed?", "Cyprus", "Aden"),
    (1, "I've had my appendix out.|A:Any other operations I should know about?|My tonsils came out when I was nineteen.", "Which operations have I had?", "tonsils", "appendix"),
    (1, "I've done a skydive.|Crossed a bungee jump off the bucket list in Queenstown.", "Which adrenaline activities have I done?", "bungee", "skydive"),
    (3, "Our village has a post office.|The village finally got a GP surgery, it opened on Monday.", "What amenities does our village have?", "GP surgery", "post office"),
    (3, "My son's in the county under-14 cricket squad.|He's made the county hockey squad too.", "Which county squads is my son in?", "hockey", "cricket"),
]
FRESH5_ZH_MULTI = [
    (1, "小区里有个幼儿园。|小区东边新开了个社区食堂，老人吃饭方便多了。", "我们小区有哪些配套？", "社区食堂", "幼儿园"),
    (3, "儿子拿过区里作文比赛的一等奖。|儿子这次又拿了市里数学竞赛的二等奖。", "儿子拿过哪些奖？", "数学竞赛", "作文比赛"),
    (3, "我老丈人种了五亩玉米。|老丈人今年又包了两亩地种花生。", "我老丈人种了哪些庄稼？", "花生", "玉米"),
    (1, "家里常备布洛芬。|又买了盒蒙脱石散备着，孩子老闹肚子。", "家里常备哪些药？", "蒙脱石散", "布洛芬"),
    (1, "我去看过故宫的文物展。|助手:最近还看了别的展吗？|上周去看了莫奈的画展，排了一个小时队。", "我看过哪些展览？", "莫奈", "故宫"),
    (1, "我家院子里养了几只鸡。|今年又抓了四只小鸭子，放在后院的池塘里。", "我家院子里养了哪些家禽？", "鸭子", "几只鸡"),
    (1, "我手机里开了北京一卡通。|去上海出差多，又开了张上海交通卡。", "我手机上开了哪些交通卡？", "上海交通卡", "北京一卡通"),
    (3, "婆婆最拿手的是包饺子。|婆婆腌的酸豆角也是一绝。", "婆婆有哪些拿手菜？", "酸豆角", "饺子"),
    (3, "我哥早年在东莞打过工。|我哥说他后来还在义乌跑过两年物流。", "我哥在哪些地方打过工？", "义乌", "东莞"),
    (1, "我车上装了行车记录仪。|又加装了个360全景影像，倒车方便多了。", "我车上加装了哪些设备？", "360全景", "行车记录仪"),
]
FRESH5_EN_RESTATE = [
    (1, "s", "The septic tank gets emptied every eighteen months.|Every eighteen months we have the septic tank emptied.", "How often is the septic tank emptied?", "eighteen months", ""),
    (3, "s", "Our neighbour Mr Petrov is a retired ship's engineer.|Before he retired, Mr Petrov was an engineer on ships.", "What did Mr Petrov do before he retired?", "engineer", ""),
    (1, "m", "Our go-to takeaways are Nando's and Wagamama.|Wagamama or Nando's, that's what we usually order in.", "Which takeaways do we usually get?", "Wagamama", "Nando's"),
    (1, "s", "My booking reference for the ferry is QX7R42.|A:Can you remind me of the ferry booking reference?|QX7R42, it's in the confirmation email too.", "What's my ferry booking reference?", "QX7R42", ""),
    (3, "s", "Wren's key worker at nursery is Miss Tamsin.|Miss Tamsin is the one who looks after Wren at nursery.", "Who is Wren's key worker at nursery?", "Tamsin", ""),
    (3, "s", "The tip opens at 8 on Saturdays.|On Saturdays the recycling centre opens its gates at 8.", "What time does the tip open on Saturdays?", "at 8", ""),
    (1, "s", "We've been in this house since 2011.|2011 is when we moved into this house.", "How long have we lived in this house?", "2011", ""),
    (1, "s", "I'm 178 cm tall.|My height is 178 cm.", "How tall am I?", "178 cm", ""),
]
FRESH5_ZH_RESTATE = [
    (3, "s", "我姨夫是中学的体育老师。|姨夫在中学教体育。", "我姨夫是做什么的？", "体育", ""),
    (1, "m", "我早饭一般吃包子和豆浆。|豆浆配包子，我天天早上就吃这个。", "我早饭一般吃什么？", "包子", "豆浆"),
    (1, "s", "我在游泳馆的会员卡号是8861023。|助手:你游泳馆的会员卡号是多少？|8861023，前台也能查到。", "我游泳馆的会员卡号是多少？", "8861023", ""),
    (3, "s", "小区东门晚上十一点关。|每天晚上十一点，小区东门就锁了。", "小区东门几点关？", "十一点", ""),
    (1, "s", "我们是2015年结的婚。|我和我老公结婚是在2015年。", "我们哪年结的婚？", "2015", ""),
    (1, "s", "从我家走到孩子学校十分钟。|走着去孩子学校，十分钟就到。", "从我家走到孩子学校要多久？", "十分钟", ""),
    (3, "s", "公司午休是十二点到一点半。|公司中午休息一个半小时，十二点到一点半。", "公司午休是几点到几点？", "十二点到一点半", ""),
    (1, "s", "我每个月房贷还六千八。|房贷我一个月还六千八。", "我每月还多少房贷？", "六千八", ""),
]
FRESH5_EN_UNRELATED = [
    (1, "s", "My work badge number is 40917.|My parking permit number has changed to PP-2288.", "What's my work badge number?", "40917", "PP-2288"),
    (3, "s", "Mum's sister lives in Shrewsbury.|Mum's brother moved to Inverness last spring.", "Where does Mum's sister live?", "Shrewsbury", "Inverness"),
    (1, "s", "The key safe by the front door opens with 2709.|I've reset the burglar alarm code to 5164.", "What's the code for the key safe?", "2709", "5164"),
    (1, "s", "My train season ticket runs out on 30 September.|My railcard expires on 12 January.", "When does my season ticket run out?", "30 September", "12 January"),
    (3, "s", "The café by the station is run by a couple called the Marshes.|The café by the station has switched its coffee to Origin beans.", "Who runs the café by the station?", "Marshes", "Origin"),
    (1, "s", "I'm seeing an osteopath about my shoulder.|My husband's started seeing a chiropractor about his back.", "Who am I seeing about my shoulder?", "osteopath", "chiropractor"),
    (1, "m", "I play bridge on Wednesday evenings.|My wife's started playing mahjong with the neighbours on Wednesdays.", "What do I play on Wednesday evenings?", "bridge", "mahjong"),
    (3, "s", "The under-12s train on Tuesday evenings.|The under-14s have moved their training to Thursday evenings.", "When do the under-12s train?", "Tuesday", "Thursday"),
    (1, "s", "My brother's stag do is in Newcastle.|My best mate's stag is in Bratislava.", "Where is my best mate's stag do?", "Bratislava", "Newcastle"),
    (1, "s", "The garage we use for the car is Peak Autos.|The bike shop I use is Spokes on Cowley Road.", "Which bike shop do I use?", "Spokes", "Peak Autos"),
    (3, "s", "The Year 8 parents' evening is on 5 February.|The Year 10 options evening is on 12 February.", "When is the Year 10 options evening?", "12 February", "5 February"),
    (1, "s", "My username on the school app is hkhan_parent.|My username for the GP booking app is hkhan82.", "What's my username for the GP booking app?", "hkhan82", "hkhan_parent"),
    (3, "s", "Our kitchen fitter is a firm called Hartley Joinery.|Our electrician for the rewire is Sean Mulvey.", "Who is our electrician for the rewire?", "Sean Mulvey", "Hartley"),
    (1, "m", "I do the crossword every morning.|My dad does sudoku every morning instead.", "What does my dad do every morning?", "sudoku", "crossword"),
]
FRESH5_ZH_UNRELATED = [
    (1, "s", "我家水表在楼道东边的柜子里。|电表箱现在挪到了一楼大厅。", "我家水表在哪？", "楼道东边", "一楼大厅"),
    (3, "s", "我大姑住在石家庄。|我二姑前年搬去了廊坊。", "我大姑住在哪？", "石家庄", "廊坊"),
    (1, "s", "我家燃气每年五月做安检。|小区消防检查这次改到了下周一。", "我家燃气每年几月安检？", "五月", "下周一"),
    (3, "s", "小区南门水果店的老板姓包。|小区南门那家面馆最近换了老板，姓祁。", "小区南门水果店的老板姓什么？", "姓包", "姓祁"),
    (1, "m", "我周末爱打掼蛋。|我爸最近迷上了打门球。", "我周末爱玩什么？", "掼蛋", "门球"),
    (1, "s", "我家大门的备用钥匙放在邻居陈阿姨那。|车的备用钥匙我现在放公司抽屉里了。", "我家大门的备用钥匙在哪？", "陈阿姨", "公司抽屉"),
    (3, "s", "儿子的书法课在周二下午。|闺女的美术课改到周四晚上了。", "儿子的书法课是什么时候？", "周二下午", "周四晚上"),
    (1, "s", "我的电动车停在3号棚。|我老公的自行车现在停到地下室了。", "我的电动车停在哪？", "3号棚", "地下室"),
    (1, "s", "我儿子的干爹是老孟。|我闺女的干妈是苏姐。", "我闺女的干妈是谁？", "苏姐", "老孟"),
    (3, "s", "我们部门的周例会在三楼会议室开。|财务部的例会在五楼小会议室开。", "财务部的例会在哪开？", "五楼小会议室", "三楼会议室"),
    (1, "s", "我淘宝的收货地址写的是公司。|我京东的收货地址写的是家里。", "我京东的收货地址写的哪？", "家里", "公司"),
    (3, "s", "我姐家的狗叫来福。|我姐家的猫叫咕噜。", "我姐家的猫叫什么？", "咕噜", "来福"),
    (1, "s", "孩子的校服是学校统一订的。|孩子的书包是在网上买的。", "孩子的书包是在哪买的？", "网上", "统一订"),
    (1, "m", "我平时爱看历史类的书。|我老公更爱看武侠小说，最近又开始重看金庸了。", "我老公爱看什么书？", "武侠", "历史类"),
]
# fmt: on

# A sixth fresh set, written blind (without reading the rules it is measured on, nor running the bench on it), for
# ``update_pairs_fresh6.jsonl`` (``bench.updates --data``). Same rows as above; ids from 800.
# fmt: off
FRESH6_EN_UPDATES = [
    (1, "I'm climbing V3s at the bouldering wall.|Sent my first V5 tonight, my forearms are destroyed.", "What grade am I climbing?", "V5", "V3"),
    (3, "Our repo's default branch is master.|We renamed the default branch to trunk across every repo this sprint.", "What is our repo's default branch called?", "trunk", "master"),
    (1, "The router lives in the hallway.|Moved the router onto the living room bookshelf.|Router's on the upstairs landing now, and at last there's signal in every room.", "Where is our router?", "upstairs landing", "living room bookshelf"),
    (1, "I coach my daughter's netball team on Saturday mornings.|I've handed the netball coaching over to another mum, I just cheer from the sideline now.", "Do I still coach the netball team?", "handed the netball coaching over", "coach my daughter's netball team"),
    (1, "My Duolingo streak is at 212 days.|Missed a day in Tenerife and the streak reset to zero, gutted.", "How long is my Duolingo streak?", "reset to zero", "212 days"),
    (3, "Hana from accounts is on maternity leave until June.|A:Do you need someone to cover Hana's invoices?|No need, Hana came back early, she's been at her desk since Monday.", "Is Hana still on maternity leave?", "came back early", "until June"),
    (1, "My parcel from Germany is stuck at customs.|What's a polite way to chase a supplier who's late?|The parcel from Germany got delivered to my neighbour at lunchtime.", "Where is my parcel from Germany?", "delivered to my neighbour", "stuck at customs"),
    (1, "I work four days a week, with Fridays off.|Back to full-time from this month, five days like everyone else.", "How many days a week do I work?", "five days", "four days"),
    (3, "Our Q3 sales target is $2 million.|Leadership raised the Q3 target to $2.4 million after the Acme deal closed.", "What is our Q3 sales target?", "$2.4 million", "$2 million"),
    (1, "Our flood damage claim is being assessed by the insurers.|A:Any word from the insurers yet?|They paid out £4,200 yesterday, so the claim's settled.", "Where are we with the flood damage claim?", "paid out", "being assessed"),
    (3, "Hugo is obsessed with trains.|Hugo won't let us read anything but space rocket books these days, Saturn V this, Apollo that.", "What is Hugo obsessed with?", "space rocket", "trains"),
    (1, "I'm in halls at Beckett House.|A:How's halls life treating you?|I've moved out, I share a house on Hyde Park Road with four friends from my course.", "Where do I live at uni?", "Hyde Park Road", "Beckett House"),
    (1, "My hair's dyed pastel pink at the moment.|Went back to my natural dark brown at the salon this afternoon.", "What colour is my hair?", "dark brown", "pastel pink"),
    (3, "Lily has lost two baby teeth.|Another wobbly one came out in an apple at breakfast, so that's three baby teeth gone.", "How many baby teeth has Lily lost?", "three", "two"),
    (1, "All my notes live in Evernote.|I exported everything last weekend, my notes are in Obsidian now.", "Which app do I keep my notes in?", "Obsidian", "Evernote"),
    (1, "We're booked into the Premier Inn for the Leeds conference.|Cancelled the hotel, we've got an Airbnb two streets from the venue instead.", "Where are we staying for the Leeds conference?", "Airbnb", "Premier Inn"),
    (1, "My parking fine appeal is under review.|Letter came this morning: appeal upheld, the £70 fine is cancelled.", "What happened with my parking fine appeal?", "appeal upheld", "under review"),
    (3, "Our gardener comes every other Friday.|A:Is the gardener still coming on Fridays?|No, he's put us on Monday mornings, every week now.", "When does our gardener come?", "Monday mornings", "every other Friday"),
    (1, "I type about 60 words a minute.|Did a typing test at lunch and hit 84 words a minute.", "How fast do I type?", "84", "60"),
    (1, "We've sold 140 tickets for the school gala.|Ticket sales for the gala just passed 300, we might need a bigger hall!", "How many gala tickets have we sold?", "300", "140"),
    (1, "My usual seat at the library is on the second floor by the windows.|Still on the second floor, but I've moved to the quiet carrels at the back.", "Where do I usually sit at the library?", "quiet carrels", "by the windows"),
    (3, "My sister lives in Flat 3 at 22 Orchard Way.|My sister swapped with a neighbour in the same block, she's in Flat 5 at 22 Orchard Way now.", "Which flat does my sister live in?", "Flat 5", "Flat 3"),
    (1, "I do a Thursday shift at the Oxfam shop.|I've stopped volunteering at Oxfam, my knees can't take the standing any more.", "Do I still volunteer at the Oxfam shop?", "stopped volunteering", "Thursday shift"),
    (3, "Mum still drives herself to the shops.|Mum's handed her driving licence back after the eye test, so I do her shopping runs.", "Does Mum still drive?", "handed her driving licence back", "drives herself"),
    (3, "The team's design lead is Marguerite.|Marguerite moved to Paris, so Jonah's covering as design lead for now.|Good news, we've hired a permanent design lead, Ife, she started on Monday.", "Who is the team's design lead?", "Ife", "Jonah"),
    (1, "Our dog Harvey's insurance is with Petplan.|Switched Harvey's cover to Bought By Many at renewal.|The premium jumped again, so Harvey's insured with Animal Friends now.", "Who insures Harvey?", "Animal Friends", "Bought By Many"),
    (1, "Our kitchen cabinets are navy blue.|What's the best way to get grout clean?|Painted the kitchen cabinets forest green over the long weekend.", "What colour are our kitchen cabinets?", "forest green", "navy"),
    (1, "My default browser is Chrome.|A:Still using Chrome?|I moved over to Firefox, the ad blocker works properly there.", "Which browser do I use?", "Firefox", "Chrome"),
    (3, "Our infrastructure runs on AWS.|Finished the migration to Google Cloud on Friday, we switched off the old account this morning.", "Which cloud does our infrastructure run on?", "Google Cloud", "AWS"),
    (3, "My friend Keeley is a nurse in A&E.|Which is better for night shifts, blackout blinds or an eye mask?|Keeley transferred to the maternity ward last month, she says it's much calmer.", "Which ward does Keeley work on?", "maternity ward", "A&E"),
]
FRESH6_ZH_UPDATES = [
    (3, "我们公司用指纹打卡。|公司换成了人脸识别打卡，走到闸机前刷个脸就行。", "我们公司怎么打卡？", "人脸识别", "指纹"),
    (1, "我科目二还没过。|科目二今天过了，一把满分，接着约科目三。", "我科目二过了没有？", "今天过了", "还没过"),
    (1, "我尿酸520。|吃了三个月非布司他，尿酸降到了380。", "我尿酸多少？", "380", "520"),
    (1, "我跑步配速一般在六分半。|最近练得勤，十公里配速跑进了五分四十。", "我跑步配速多少？", "五分四十", "六分半"),
    (3, "我们厂周六要上半天班。|厂里取消了周六的班，这个月起正式双休了。", "我们厂周六还上班吗？", "双休", "半天班"),
    (3, "老公在新疆出差，月底才回来。|助手:你老公出差回来了吗？|提前一周回来了，昨晚到的家。", "我老公还在出差吗？", "昨晚到的家", "在新疆出差"),
    (3, "对门养了只泰迪。|对门家现在养的是只柯基，小短腿天天在楼道里跑，原来那只送回老家了。", "对门养的什么狗？", "柯基", "泰迪"),
    (3, "我哥开的是五菱宏光。|我哥提了辆理想L6，周末拉着一家老小去自驾了。", "我哥开什么车？", "理想L6", "五菱宏光"),
    (1, "客厅电视是55寸的。|电视挂墙上多高合适？|客厅换了台85寸的，看球太过瘾了。", "客厅的电视多大？", "85寸", "55寸"),
    (1, "我在备考一建。|一建成绩出来了，过了！接下来准备考咨询工程师。", "我在备考什么证？", "咨询工程师", "一建"),
    (3, "阳台那盆茉莉开得正好。|茉莉没熬过这个冬天，冻死了。", "阳台的茉莉怎么样了？", "冻死了", "开得正好"),
    (1, "我买菜一般去永辉。|现在买菜都在盒马上下单，半小时就送到家。", "我在哪买菜？", "盒马", "永辉"),
    (1, "卧室空调不制冷，在等师傅上门。|助手:空调修好了吗？|好了，师傅来加了点氟，现在凉飕飕的。", "卧室空调现在能用吗？", "加了点氟", "不制冷"),
    (3, "爸妈住在老小区的六楼，没电梯。|爸妈搬到我们小区一楼了，走两步就能过来吃饭。", "我爸妈住几楼？", "一楼", "六楼"),
    (3, "宝宝一开始喝的是飞鹤。|后来给宝宝转了雅培。|那个喝了上火，现在换成君乐宝了。", "宝宝现在喝什么奶粉？", "君乐宝", "雅培"),
    (3, "公司班车在地铁站A口上车。|班车点挪到了B口对面的公交站。|今天又通知，班车改在园区北门上车了。", "公司班车在哪上车？", "园区北门", "B口对面"),
    (3, "我们这水费一吨三块四。|水价调整了，居民用水一吨涨到四块一。", "我们这水费一吨多少钱？", "四块一", "三块四"),
    (3, "公司在科技园南区。|公司还在科技园，不过搬到了北区的新楼。", "公司在科技园哪个区？", "北区", "南区"),
    (1, "我订的早餐配送是周一到周五每天送。|还是那家早餐，我改成只送周一三五了。", "早餐配送哪几天送？", "周一三五", "周一到周五"),
    (3, "表妹还在相亲，一直没碰到合适的。|表妹跟那个中学老师订婚了，国庆办酒。", "表妹现在感情上怎么样？", "订婚", "相亲"),
    (1, "猫砂一直用的豆腐砂。|最近换成混合砂了，结团好还不臭。", "我家用什么猫砂？", "混合砂", "豆腐砂"),
    (1, "我每天中午在工位上午睡半小时。|换了开放工位以后，中午我就不睡了，趴着睡醒脖子疼。", "我中午还午睡吗？", "不睡了", "午睡半小时"),
    (3, "我爸每天早上去河边钓鱼。|我爸把渔具都送人了，说腰吃不消，现在早上就在小区里遛弯。", "我爸还去钓鱼吗？", "渔具都送人了", "河边钓鱼"),
    (1, "我的医保定点在老家的社区医院。|助手:医保定点医院改了吗？|改了，现在定点在市中心医院，看病方便多了。", "我的医保定点医院是哪家？", "市中心医院", "社区医院"),
    (3, "儿子的篮球课在体育中心上。|助手:儿子还在体育中心上篮球课吗？|换地方了，学校跟俱乐部合作，现在放学直接在学校体育馆上。", "儿子的篮球课在哪上？", "学校体育馆", "体育中心"),
    (1, "我的婚假还没休。|助手:婚假打算怎么安排？|已经休完了，去云南玩了十天。", "我的婚假休了吗？", "休完了", "还没休"),
    (1, "我每天通勤一个半小时。|附近有什么适合周末遛娃的公园？|搬家以后通勤只要二十分钟，骑车就到。", "我每天通勤多久？", "二十分钟", "一个半小时"),
    (3, "公司食堂一顿午饭12块。|年终总结怎么写才不显得空？|食堂午饭涨价了，现在一顿15块。", "公司食堂午饭多少钱一顿？", "15块", "12块"),
    (1, "我的公众号每周更新一篇。|公众号我停更了，精力实在顾不过来。", "我的公众号还在更新吗？", "停更", "每周更新一篇"),
    (3, "楼下那个铺面是家理发店，叫一剪美。|楼下那个铺面转给了别人，现在开的是宠物美容店。", "楼下那个铺面现在开的什么店？", "宠物美容店", "理发店"),
]
FRESH6_EN_MULTI = [
    (3, "Our library lends out e-books.|The library's started lending tools too, drills, ladders, even a pressure washer.", "What does our library lend out?", "tools", "e-books"),
    (1, "My new car has heated seats.|A:Anything else good about the new car?|It's got adaptive cruise control, lovely on the motorway.", "What features does my car have?", "adaptive cruise control", "heated seats"),
    (1, "I've read every Discworld book.|Finished the last Wheel of Time book last night, that's the whole series done!", "Which book series have I read all the way through?", "Wheel of Time", "Discworld"),
    (3, "Our daughter has her Brownie cooking badge.|She came home from Brownies with her camping badge too.", "Which Brownie badges does our daughter have?", "camping", "cooking"),
    (1, "I'm saving up for a new boiler.|I've started putting £50 a month into a holiday fund as well.", "What am I saving for?", "holiday fund", "new boiler"),
    (1, "Our house has solar panels.|We had a heat pump fitted in March as well.", "What energy upgrades does our house have?", "heat pump", "solar panels"),
    (3, "My son's best mates at school are Arjun and Felix.|He's made a new friend at cricket too, a boy called Tobiah.", "Who are my son's friends?", "Tobiah", "Arjun;Felix"),
    (1, "I'm on the rota to do readings at church.|A:Do you help out at church in any other way?|I do the flowers once a month as well.", "What do I do at church?", "the flowers", "readings"),
    (3, "Our team owns the payments service.|Since the reorg we've picked up the notifications service as well.", "Which services does our team own?", "notifications", "payments"),
    (1, "There's a shed at the bottom of my garden.|Finished building a greenhouse next to it this weekend.", "What outbuildings are in my garden?", "greenhouse", "shed"),
]
FRESH6_ZH_MULTI = [
    (1, "我家冰箱里常备速冻饺子。|又囤了几袋螺蛳粉，加班回来煮一包。", "我家常备哪些速食？", "螺蛳粉", "速冻饺子"),
    (3, "儿子会游蛙泳。|儿子这个暑假又学会了自由泳。", "儿子会哪些泳姿？", "自由泳", "蛙泳"),
    (1, "单位运动会我报了乒乓球。|助手:还报了别的项目吗？|拔河也报了，凑个人数。", "单位运动会我报了哪些项目？", "拔河", "乒乓球"),
    (3, "我姑姑开了家火锅店。|姑姑在隔壁又开了一家烧烤店，两家店一起管。", "我姑姑开了哪些店？", "烧烤店", "火锅店"),
    (1, "我在中国银行买了一份大额存单。|又在招行买了点国债。", "我买了哪些稳健的理财？", "国债", "大额存单"),
    (3, "我们村早就通了自来水。|今年村里又通了天然气，做饭不用烧柴了。", "我们村通了什么？", "天然气", "自来水"),
    (1, "我在公司负责招聘。|领导又让我把培训这块也管起来。", "我在公司负责哪些工作？", "培训", "招聘"),
    (3, "这条街上有家沙县小吃。|街口又开了家兰州拉面。", "这条街上有哪些小吃店？", "兰州拉面", "沙县"),
    (1, "我看过《红楼梦》原著。|这个月把《水浒传》也啃完了。", "四大名著我看过哪几本？", "水浒传", "红楼梦"),
    (3, "我爸有一块上海牌的老手表。|我爸又淘到一块梅花牌的，宝贝得不得了。", "我爸有哪些老手表？", "梅花", "上海牌"),
]
FRESH6_EN_RESTATE = [
    (1, "s", "My blood group is B positive.|I'm B positive, it says so on my donor card.", "What's my blood group?", "B positive", ""),
    (3, "s", "Our neighbour Ade drives for Uber at night.|Most nights Ade's out doing Uber runs.", "What does Ade do at night?", "Uber", ""),
    (1, "m", "We usually holiday in Portugal or Greece.|Greece or Portugal, that's where we end up most summers.", "Where do we usually go on holiday?", "Portugal", "Greece"),
    (1, "s", "The restaurant booking is under Adebayo.|A:What name is the table under?|Adebayo, my wife's surname.", "What name is our restaurant booking under?", "Adebayo", ""),
    (3, "s", "The bakery on our corner closes at 2 on Sundays.|On Sundays the corner bakery shuts at 2.", "What time does the corner bakery close on Sundays?", "at 2", ""),
    (1, "s", "My wedding ring is white gold.|The ring I got married with is white gold.", "What is my wedding ring made of?", "white gold", ""),
    (3, "s", "Our office building has 14 floors.|There are 14 floors in our office block.", "How many floors does our office building have?", "14 floors", ""),
    (1, "m", "I have type 1 diabetes and coeliac disease.|Coeliac disease and type 1 diabetes, both diagnosed when I was a kid.", "What medical conditions do I have?", "type 1 diabetes", "coeliac disease"),
]
FRESH6_ZH_RESTATE = [
    (1, "s", "我每天早上七点二十出门。|早上七点二十，我准时出门上班。", "我每天早上几点出门？", "七点二十", ""),
    (3, "s", "我大舅在镇上开了家拖拉机修理铺。|镇上那家拖拉机修理铺是我大舅开的。", "我大舅是做什么的？", "拖拉机修理铺", ""),
    (1, "m", "我们家过年一般吃饺子和鱼。|年夜饭少不了鱼，饺子也得有。", "我们家过年一般吃什么？", "饺子", "鱼"),
    (1, "s", "我家WiFi名字叫xiaowu_5G。|助手:你家WiFi叫什么来着？|xiaowu_5G，带下划线的那个。", "我家WiFi叫什么？", "xiaowu_5G", ""),
    (3, "s", "我们单位有三百多号人。|单位里一共三百多人。", "我们单位有多少人？", "三百多", ""),
    (1, "s", "我和老婆是在大学认识的。|我跟我老婆是大学同学，在学校认识的。", "我和老婆是在哪认识的？", "大学", ""),
    (3, "s", "我家狗狗是只金毛。|我们养的是金毛，脾气特别好。", "我家狗是什么品种？", "金毛", ""),
    (1, "s", "我的车百公里油耗七个。|我那辆车跑一百公里大概七个油。", "我的车油耗多少？", "七个", ""),
]
FRESH6_EN_UNRELATED = [
    (1, "s", "My morning alarm is set for 6:10.|The kids' alarm goes off at 7.", "What time is my morning alarm set for?", "6:10", "at 7"),
    (3, "s", "The Italian place on Mill Lane is called Nonna's.|The Italian place on Bridge Street has rebranded as Trattoria Blu.", "What's the Italian place on Mill Lane called?", "Nonna's", "Trattoria Blu"),
    (1, "s", "My gas meter read 04512 last month.|The electricity meter read 23890 this morning.", "What did the electricity meter read this morning?", "23890", "04512"),
    (1, "m", "I'm reading a biography of Lincoln.|My book club is doing Piranesi this month.", "What is my book club reading this month?", "Piranesi", "Lincoln"),
    (3, "s", "Jasper's shift at the warehouse starts at 6 am.|Jasper's sister starts her shift at the care home at 8 pm.", "When does Jasper's sister start her shift?", "8 pm", "6 am"),
    (1, "s", "Our Airbnb in Lisbon has the key code 5930.|The lockbox code for the Porto flat is 1184.", "What's the key code for our Airbnb in Lisbon?", "5930", "1184"),
    (3, "m", "Uncle Des grows leeks for the village show.|Auntie Pat enters her Victoria sponge in the village show.", "What does Auntie Pat enter in the village show?", "Victoria sponge", "leeks"),
    (1, "s", "Last year's water bill was £410.|This year's water bill has come in at £455.", "How much was last year's water bill?", "£410", "£455"),
    (3, "s", "Our Leeds office is on Wellington Street.|Our Leeds warehouse is moving out to Stourton next month.", "Where is our Leeds office?", "Wellington Street", "Stourton"),
    (1, "s", "The Monday bin is general waste.|The Thursday bin is garden waste.", "Which bin goes out on Thursday?", "garden waste", "general waste"),
    (1, "s", "My first-choice university is Bristol.|My backup choice is Cardiff.", "What is my backup choice of university?", "Cardiff", "Bristol"),
    (3, "s", "Soraya's flight lands at Heathrow.|Soraya's parents are landing at Gatwick an hour later.", "Which airport does Soraya's flight land at?", "Heathrow", "Gatwick"),
    (1, "s", "My GP surgery's phone line opens at 8.|The pharmacy's prescription line opens at 10.", "When does the pharmacy's prescription line open?", "at 10", "at 8"),
    (3, "s", "The Ashworths' dog is a spaniel called Pickle.|The Ashworths' cat is a ginger tom called Marmalade.", "What's the Ashworths' cat called?", "Marmalade", "Pickle"),
]
FRESH6_ZH_UNRELATED = [
    (1, "s", "老家房子的房产证放在我妈那。|新房的购房合同我存在银行保管箱里了。", "老家房子的房产证在哪？", "我妈那", "银行保管箱"),
    (3, "s", "小区北门的药店是老百姓大药房。|小区南门新开的药店是一心堂。", "小区南门新开的药店是哪家？", "一心堂", "老百姓"),
    (1, "s", "上个月电费交了二百八。|这个月燃气费交了九十六。", "这个月燃气费交了多少？", "九十六", "二百八"),
    (3, "s", "我表姐在青岛一家医院当护士。|我表姐夫在青岛港开吊车。", "我表姐夫做什么工作？", "开吊车", "当护士"),
    (1, "s", "去年过年我们是在我妈家过的。|今年过年改去婆婆家过。", "去年过年在哪过的？", "我妈家", "婆婆家"),
    (1, "s", "我工作日七点起床。|周末我一般睡到九点。", "我周末一般几点起？", "九点", "七点"),
    (3, "m", "我二姨爱唱越剧。|我三姨爱跳广场舞。", "我二姨有什么爱好？", "越剧", "广场舞"),
    (1, "s", "大门的密码锁是862051。|单元门的门禁卡我放在鞋柜上了。", "大门的密码是多少？", "862051", "鞋柜"),
    (3, "s", "学校的高一在东校区上课。|学校的初三搬到了新盖的北楼。", "学校的初三在哪上课？", "北楼", "东校区"),
    (1, "s", "我早饭在单位食堂吃。|午饭我一般点外卖。", "我午饭一般怎么解决？", "点外卖", "单位食堂"),
    (3, "s", "老周的儿子在读博士，学化学。|老周的侄子在读研，学的是计算机。", "老周的儿子学什么？", "化学", "计算机"),
    (1, "s", "我家热水器是燃气的。|厨房的灶台换成了电磁炉，燃气灶拆了。", "我家热水器用什么？", "燃气的", "电磁炉"),
    (1, "s", "体检报告说我血压偏高。|我老婆的体检报告说她有点贫血。", "我老婆体检查出什么问题？", "贫血", "血压偏高"),
    (3, "s", "隔壁班的班主任教英语。|我们班的班主任教数学。", "我们班的班主任教什么？", "数学", "英语"),
]
# fmt: on

#: the lists of each fresh set, per language: (lang, updates, additions, restatements, unrelated)
FRESH_SETS = (
    ("en", FRESH_EN_UPDATES, FRESH_EN_MULTI, FRESH_EN_RESTATE, FRESH_EN_UNRELATED),
    ("zh", FRESH_ZH_UPDATES, FRESH_ZH_MULTI, FRESH_ZH_RESTATE, FRESH_ZH_UNRELATED),
)
FRESH2_SETS = (
    ("en", FRESH2_EN_UPDATES, FRESH2_EN_MULTI, FRESH2_EN_RESTATE, FRESH2_EN_UNRELATED),
    ("zh", FRESH2_ZH_UPDATES, FRESH2_ZH_MULTI, FRESH2_ZH_RESTATE, FRESH2_ZH_UNRELATED),
)
FRESH3_SETS = (
    ("en", FRESH3_EN_UPDATES, FRESH3_EN_MULTI, FRESH3_EN_RESTATE, FRESH3_EN_UNRELATED),
    ("zh", FRESH3_ZH_UPDATES, FRESH3_ZH_MULTI, FRESH3_ZH_RESTATE, FRESH3_ZH_UNRELATED),
)
FRESH4_SETS = (
    ("en", FRESH4_EN_UPDATES, FRESH4_EN_MULTI, FRESH4_EN_RESTATE, FRESH4_EN_UNRELATED),
    ("zh", FRESH4_ZH_UPDATES, FRESH4_ZH_MULTI, FRESH4_ZH_RESTATE, FRESH4_ZH_UNRELATED),
)
FRESH5_SETS = (
    ("en", FRESH5_EN_UPDATES, FRESH5_EN_MULTI, FRESH5_EN_RESTATE, FRESH5_EN_UNRELATED),
    ("zh", FRESH5_ZH_UPDATES, FRESH5_ZH_MULTI, FRESH5_ZH_RESTATE, FRESH5_ZH_UNRELATED),
)
FRESH6_SETS = (
    ("en", FRESH6_EN_UPDATES, FRESH6_EN_MULTI, FRESH6_EN_RESTATE, FRESH6_EN_UNRELATED),
    ("zh", FRESH6_ZH_UPDATES, FRESH6_ZH_MULTI, FRESH6_ZH_RESTATE, FRESH6_ZH_UNRELATED),
)


def timeline(texts: list[str], lang: str, start: dt.datetime, gap: dt.timedelta) -> list[dict[str, str]]:
    turns: list[dict[str, str]] = []
    when = start
    for i, text in enumerate(texts):
        assistant = text.startswith(ASSISTANT_PREFIX[lang])
        if i:
            when += REPLY_AFTER if turns[-1]["role"] == "assistant" else gap
        content = text.removeprefix(ASSISTANT_PREFIX[lang]).strip()
        turns.append(
            {
                "role": "assistant" if assistant else "user",
                "content": content,
                "timestamp": when.isoformat().replace("+00:00", "Z"),
            }
        )
    return turns


def record(
    n: int,
    lang: str,
    label: str,
    person: int,
    kind: str,
    turns: str,
    question: str,
    current: str,
    stale: str | None,
    keep: list[str],
) -> dict[str, object]:
    gap_name, gap = GAPS[n % len(GAPS)]
    start = T0 + dt.timedelta(days=2 * n, hours=n % 7)
    built = timeline(turns.split("|"), lang, start, gap)
    asked = dt.datetime.fromisoformat(built[-1]["timestamp"]) + dt.timedelta(hours=2)
    return {
        "id": f"{lang}-{label}-{n:03d}",
        "lang": lang,
        "person": "first" if person == 1 else "third",
        "label": label,
        "slot_kind": "single" if kind == "s" else "multi",
        "gap": gap_name,
        "turns": built,
        "question": question,
        "asked_at": asked.isoformat().replace("+00:00", "Z"),
        "current": current,
        "stale": stale,
        "keep": keep,
    }


def split(values: str) -> list[str]:
    return [v for v in values.split(";") if v]


def records() -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for lang, updates, sequences, additions, restatements, unrelated in (
        ("en", EN_UPDATES, EN_SEQUENCES, EN_MULTI, EN_RESTATE, EN_UNRELATED),
        ("zh", ZH_UPDATES, ZH_SEQUENCES, ZH_MULTI, ZH_RESTATE, ZH_UNRELATED),
    ):
        for n, (person, turns, question, current, stale) in enumerate([*updates, *sequences]):
            out.append(record(n, lang, "update", person, "s", turns, question, current, stale, []))
        for n, (person, turns, question, current, earlier) in enumerate(additions):
            out.append(
                record(
                    n,
                    lang,
                    "addition",
                    person,
                    "m",
                    turns,
                    question,
                    current,
                    None,
                    [*split(earlier), current],
                )
            )
        for label, rows in (("restatement", restatements), ("unrelated", unrelated)):
            for n, (person, kind, turns, question, current, others) in enumerate(rows):
                out.append(
                    record(
                        n,
                        lang,
                        label,
                        person,
                        kind,
                        turns,
                        question,
                        current,
                        None,
                        [current, *split(others)],
                    )
                )
    # the older statement asked (after every other record: the earlier positions do not move); ids from 100
    for lang, rows in (("en", EN_UNRELATED_OLDER), ("zh", ZH_UNRELATED_OLDER)):
        for n, (person, kind, turns, question, current, others) in enumerate(rows, start=100):
            out.append(
                record(
                    n,
                    lang,
                    "unrelated",
                    person,
                    kind,
                    turns,
                    question,
                    current,
                    None,
                    [current, *split(others)],
                )
            )
    for n, (person, turns, question, current, stale) in enumerate(EN_UPDATES_LATER, start=200):
        out.append(record(n, "en", "update", person, "s", turns, question, current, stale, []))
    return out


def fresh_records(
    sets: tuple[tuple[str, list, list, list, list], ...], start: int
) -> list[dict[str, object]]:
    """A fresh set (``FRESH_SETS`` from 300, ``FRESH2_SETS`` from 400, ``FRESH3_SETS`` from 500, ``FRESH4_SETS``
    from 600, ``FRESH5_SETS`` from 700, ``FRESH6_SETS`` from 800): every label in both languages."""
    out: list[dict[str, object]] = []
    for lang, updates, additions, restatements, unrelated in sets:
        for n, (person, turns, question, current, stale) in enumerate(updates, start=start):
            out.append(record(n, lang, "update", person, "s", turns, question, current, stale, []))
        for n, (person, turns, question, current, earlier) in enumerate(additions, start=start):
            keep = [*split(earlier), current]
            out.append(record(n, lang, "addition", person, "m", turns, question, current, None, keep))
        for label, rows in (("restatement", restatements), ("unrelated", unrelated)):
            for n, (person, kind, turns, question, current, others) in enumerate(rows, start=start):
                keep = [current, *split(others)]
                out.append(record(n, lang, label, person, kind, turns, question, current, None, keep))
    return out


def write(path: Path, rows: list[dict[str, object]]) -> None:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    print(f"wrote {len(rows)} records to {path}")


def main() -> None:
    write(OUT, records())
    write(FRESH_OUT, fresh_records(FRESH_SETS, FRESH_FROM))
    write(FRESH2_OUT, fresh_records(FRESH2_SETS, FRESH2_FROM))
    write(FRESH3_OUT, fresh_records(FRESH3_SETS, FRESH3_FROM))
    write(FRESH4_OUT, fresh_records(FRESH4_SETS, FRESH4_FROM))
    write(FRESH5_OUT, fresh_records(FRESH5_SETS, FRESH5_FROM))
    write(FRESH6_OUT, fresh_records(FRESH6_SETS, FRESH6_FROM))


if __name__ == "__main__":
    main()
