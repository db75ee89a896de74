# hoc peer benchmark bot `big_money` for Dominiate (rspeer/dominiate).
# Buy Province with 8+, Gold with 6-7, Silver with 3-5, nothing else.
# A priority list only ever sees affordable cards, so the order is the rule.
# Treasures: Dominiate's BasicAI plays every treasure (ai_playValue 100 > 0).
# Last-Province rule: Dominiate's engine (State.getSingleBuyDecision ->
# buyCausesToLose) removes a buy that would end the game with this bot not
# among the winners; the bot then falls through to Gold.
{
  name: 'big_money'
  author: 'hoc'
  requires: []
  gainPriority: (state, my) -> [
    "Province"
    "Gold"
    "Silver"
  ]
}
