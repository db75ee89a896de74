# hoc peer benchmark bot `smithy_bm` for Dominiate (rspeer/dominiate).
# big_money, but with 4-5 coins buy a Smithy if it owns none.
# Smithy is always played (its ai_playValue is 200 > 0 with one action left).
{
  name: 'smithy_bm'
  author: 'hoc'
  requires: ['Smithy']
  gainPriority: (state, my) -> [
    "Province"
    "Gold"
    "Smithy" if my.countInDeck("Smithy") == 0
    "Silver"
  ]
}
