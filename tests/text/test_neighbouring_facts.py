"""Facts beside each other are never one slot (issue 21: "never lose, merge or distort what a user said").

Pairs written for this test, in the shapes that ended a distinct fact before: another person's change ("My
wife left Google" / "I work at Google"), an ending of a neighbouring thing ("I stopped drinking coffee in the
morning" / "I go running every morning"), another kind of one thing ("my email password" / "My WiFi password
is …"), a thing of the older one's value (吴医生的诊所搬到了… / 我的牙医是吴医生), a change of a named other
(招商银行把…网点关了 / 我的银行是招商银行). The newer statement must not end the older one. One pair still does: the
rules do not read its shape (``xfail``, strict: it is known, and passes the day they do)."""

from __future__ import annotations

import pytest

from neuromem.text.value_changes import value_change

NEIGHBOURS = [  # (older, newer)
    ("My daughter plays violin.", "I quit piano last year."),
    ("I work at Google.", "My wife left Google in March."),
    ("My favorite restaurant is Nopa.", "Nopa changed its menu, it's all vegan now."),
    ("I drive a Honda Civic.", "My brother sold his Honda."),
    ("I live in Berlin.", "My parents moved to Berlin last month."),
    ("My dentist is Dr. Alvarez.", "Dr. Alvarez moved his office to Main Street."),
    ("I take 10 mg of lisinopril every morning.", "My dad stopped taking lisinopril."),
    ("My phone is an iPhone 12.", "Apple stopped selling the iPhone 12."),
    ("I'm a vegetarian.", "My sister is no longer vegetarian."),
    ("My gym is FitOne.", "FitOne raised its prices to $60 a month."),
    ("I go running every morning.", "I stopped drinking coffee in the morning."),
    ("My manager is Tom.", "Tom moved to the Berlin office."),
    ("The project deadline is March 3.", "The design review moved to March 10."),
    ("My WiFi password is orca77.", "I changed my email password yesterday."),
    ("I support Arsenal.", "Arsenal switched managers again."),
    ("I have a cat named Miso.", "My neighbor's cat Luna ran away."),
    ("My office is on the 3rd floor.", "The cafeteria moved to the 5th floor."),
    ("我在美团上班。", "我老婆从美团离职了。"),
    ("我住在杭州。", "我爸妈搬到杭州了。"),
    ("我每天早上喝咖啡。", "我戒了奶茶。"),
    ("我的牙医是吴医生。", "吴医生的诊所搬到了人民路。"),
    ("我喜欢吃川菜。", "楼下那家川菜馆关了。"),
    ("我的车是特斯拉。", "我哥把他的特斯拉卖了。"),
    ("我的老板是李总。", "李总的助理换人了。"),
    ("我女儿在实验小学上学。", "我儿子从实验小学毕业了。"),
    ("I commute by train.", "The train line to the airport closed."),
    ("My landlord is Mr. Chen.", "Mr. Chen sold the building next door."),
    ("I use Windows at work.", "My son switched to Linux."),
    ("I teach math at Lincoln High.", "Lincoln High changed its start time to 8:30."),
    ("My rent is $1,500 a month.", "My parking spot went up to $120 a month."),
    ("I play guitar in a band.", "Our drummer quit the band."),
    ("My book club meets on Tuesdays.", "My yoga class moved to Thursdays."),
    ("My son goes to Lincoln Elementary.", "My daughter switched schools, she's at Oak Ridge now."),
    ("I work remotely on Fridays.", "My team moved standup to 10am."),
    ("My car is a blue Mazda.", "I repainted the fence blue."),
    ("I'm learning Spanish on Duolingo.", "I stopped using Duolingo for French."),
    ("My bank is Chase.", "Chase closed the branch near my office."),
    ("I take the 7:15 train.", "The 7:15 bus now leaves at 7:25."),
    ("My mother lives in Lyon.", "My mother-in-law moved to Lyon."),
    ("My phone number is 555-0142.", "My office number changed to 555-0199."),
    ("I'm allergic to cats.", "My cat passed away last spring."),
    ("My favorite coffee shop is Blue Bottle.", "Blue Bottle raised the price of a latte to $6."),
    ("I weigh 80 kg.", "My suitcase weighed 23 kg."),
    ("My daughter is 7.", "My niece turned 8 last week."),
    ("I have a dentist appointment on Monday.", "My haircut moved to Tuesday."),
    ("I drink two coffees a day.", "I cut down on sugar, only one spoon now."),
    ("My password manager is 1Password.", "I switched my VPN to Mullvad."),
    ("我女儿7岁了。", "我侄女上周满8岁了。"),
    ("我的手机号是13800001111。", "我办公室电话改成了010-5555。"),
    ("我每天坐地铁上班。", "公司班车改到7点半发车了。"),
    ("我妈住在成都。", "我婆婆搬到成都了。"),
    ("我养了一只猫叫咪咪。", "邻居家的狗丢了。"),
    ("我周一有牙医预约。", "我理发改到周二了。"),
    ("我在学西班牙语。", "我不再学法语了。"),
    ("我的银行是招商银行。", "招商银行把我公司附近的网点关了。"),
    ("我喜欢的咖啡店是Manner。", "Manner的拿铁涨价到20块了。"),
    ("我老公在华为上班。", "我弟弟从华为离职了。"),
    ("我每周三打羽毛球。", "我每周五的瑜伽课取消了。"),
    ("My brother lives in Austin.", "My brother-in-law moved to Denver."),
    ("My boss is Linda.", "Linda's assistant quit."),
    ("I bank with Chase.", "I closed my savings account at Wells Fargo."),
    ("My gym membership is $40 a month.", "My Netflix subscription went up to $18 a month."),
]


@pytest.mark.parametrize(("old", "new"), NEIGHBOURS)
def test_a_neighbouring_fact_is_not_ended(old: str, new: str) -> None:
    assert value_change(new, old) is None
