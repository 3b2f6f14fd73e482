// Passwords at least 6 characters long that appear near the top of public breach lists. A password
// on this list is refused (spec §8 weak-password) even though it is long enough.
const COMMON = `123456 1234567 12345678 123456789 1234567890 12345678910 password password1 password12 password123
passw0rd p@ssword p@ssw0rd qwerty qwerty1 qwerty12 qwerty123 qwertyuiop 111111 1111111 11111111 000000
00000000 123123 123123123 654321 666666 696969 777777 888888 987654321 121212 112233 123321 abc123
abcdef abcd1234 iloveyou princess admin1 admin12 admin123 administrator welcome welcome1 welcome123
letmein letmein1 monkey dragon master sunshine shadow football baseball superman batman trustno1
starwars whatever freedom computer michael jennifer jordan23 hunter hunter2 killer charlie andrew
michelle jessica pepper ginger cookie chocolate summer flower soccer hockey ranger buster thomas
tigger robert daniel matthew joshua nicole ashley hannah loveme lovely mustang access secret secret1
changeme changeme1 default guest123 login123 test123 test1234 testing 1q2w3e 1q2w3e4r 1q2w3e4r5t
zaq12wsx 1qaz2wsx qazwsx asdfgh asdfghjkl zxcvbn zxcvbnm 123qwe qwe123 q1w2e3r4 aaaaaa abcabc
google facebook linkedin twitter instagram youtube uganda kampala uganda123 kampala123 jesus123
blessed blessing god123 amen123 samsung iphone apple123 computer1 internet mother father family
sweetheart angel1 pokemon naruto liverpool arsenal chelsea manutd barcelona realmadrid`;

const SET = new Set(COMMON.split(/\s+/).filter(Boolean));

export function isCommonPassword(password: string): boolean {
  const lower = password.toLowerCase();
  if (SET.has(lower)) return true;
  // One character repeated, or a straight run of digits, is as weak as anything on the list.
  return /^(.)\1+$/.test(lower) || '01234567890123456789'.includes(lower) || '98765432109876543210'.includes(lower);
}
